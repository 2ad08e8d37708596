/*
 * undead_peer.c: a command-line harness around sgt-puzzles' own Undead code, for
 * logic-agents' benchmarks (benchmarks/bench_undead_peer.py). It is this project's code; the
 * game's code is compiled in unchanged from the sources you point the build at:
 *
 *   cc -O2 -I SGT -o undead_peer undead_peer.c SGT/nullfe.c SGT/misc.c SGT/malloc.c \
 *      SGT/random.c -lm
 *
 * (the script builds it so). Including undead.c gives the harness the game's static
 * functions; nothing in them is changed. The one thing the harness does differently from
 * the game is that it calls the generator directly, so the game's 54-cell limit (which
 * lives in validate_params, never called here) does not apply.
 *
 *   undead_peer gen PARAMS SEED COUNT   e.g. gen 7x7dn 1 50
 *       prints COUNT lines "ID<TAB>CPU_SECONDS", ID as the game writes it (PARAMS:DESC),
 *       each puzzle drawn from the random stream seeded with SEED-k (k = 0, 1, ...).
 *   undead_peer fill PARAMS SEED COUNT   e.g. fill 20x20dn 1 30
 *       the generator's own drawing of a board, stopped before its acceptance tests: the
 *       mirrors, the game's checks of the layout (monster share, path lengths for the
 *       level), its path-by-path choice of monsters (get_unique, until `filling` cells are
 *       left) and random monsters for the rest, with the game's random stream and calls in
 *       the game's order. Prints "PARAMS<TAB>SOLUTION<TAB>CPU_SECONDS", SOLUTION as W*H
 *       letters of G V Z L R. At 20x20 the acceptance tests that follow in the game (its
 *       iterative solver, then a brute force over every undecided cell) do not finish, so
 *       the game never returns such a board; logic-agents makes a drawn board unique with
 *       givens (benchmarks/bench_undead_peer.py).
 *   undead_peer solve [REPEAT]
 *       reads IDs, one per line; for each runs the game's solve_game REPEAT times (10 by
 *       default) and prints "OK<TAB>SOLUTION<TAB>CPU_SECONDS_PER_SOLVE" or
 *       "FAIL<TAB>REASON<TAB>CPU_SECONDS_PER_SOLVE". SOLUTION is W*H letters of G V Z L R.
 *   undead_peer rate        (or the same binary called as undead_rate, with no arguments)
 *       reads IDs, one per line; for each runs the acceptance tests of the game's generator
 *       (new_game_desc): the iterative solver to a fixed point from the givens, its pass
 *       count, then, unless it solved the board, the brute force; and prints
 *       "LEVEL PASSES OPEN SPACE": LEVEL as new_game_desc would grade it (easy, normal,
 *       tricky; inconsistent, unsolved or bad-id otherwise), PASSES the iterative passes,
 *       OPEN the cells it left undecided, SPACE the product of their possibilities (what
 *       the brute force walks through; 1 when it does not run). This is the RATER of
 *       benchmarks/bench_undead_rating.py and benchmarks/bench_undead_givens.py.
 */
#ifndef ANDROID_ARROWS_LEFT
#define ANDROID_ARROWS_LEFT 0 /* the Android port's (chrisboyle/sgtpuzzles) key layout */
#endif
#include "undead.c"

#include <time.h>

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The board as new_game_desc draws it, up to (not including) its acceptance tests; the
 * steps and the random calls are the game's, in its order. Returns the solution letters,
 * or NULL when the game would discard the drawing and draw again. */
static char *draw_board(const game_params *params, random_state *rs)
{
    game_state *new = new_state(params);
    int w = params->w, h = params->h, stride = w + 2, count = 0;
    for (int y = 1; y < h + 1; y++)
        for (int x = 1; x < w + 1; x++) {
            int c = random_upto(rs, 5);
            int at = x + y * stride;
            if (c >= 2) { new->common->grid[at] = CELL_EMPTY; new->common->xinfo[at] = count++; }
            else { new->common->grid[at] = c == 0 ? CELL_MIRROR_L : CELL_MIRROR_R;
                   new->common->xinfo[at] = -1; }
        }
    new->common->num_total = count;
    float ratio = (float)count / (float)(w * h);
    if (count <= 4 || ratio < 0.48F || ratio > 0.78F) { free_game(new); return NULL; }
    for (int r = 0; r < 2 * (w + h); r++) {
        int x, y;
        int gridno = range2grid(r, w, h, &x, &y);
        new->common->grid[x + y * stride] = gridno;
        new->common->xinfo[x + y * stride] = 0;
    }
    int corners[4] = { 0, w + 1, w + 1 + (h + 1) * stride, (h + 1) * stride };
    for (int k = 0; k < 4; k++) { new->common->grid[corners[k]] = 0; new->common->xinfo[corners[k]] = 0; }
    new->guess = snewn(count, int);
    new->common->fixed = snewn(count, bool);
    for (int g = 0; g < count; g++) { new->guess[g] = 7; new->common->fixed[g] = false; }
    make_paths(new);
    int max_length = params->diff == DIFF_EASY ? min(w, h) + 1
                   : params->diff == DIFF_NORMAL ? (max(w, h) * 3) / 2 : 9;
    for (int p = 0; p < new->common->num_paths; p++)
        if (new->common->paths[p].num_monsters > max_length) { free_game(new); return NULL; }
    qsort(new->common->paths, new->common->num_paths, sizeof(struct path), path_cmp);
    int filling = params->diff == DIFF_EASY ? 2
                : params->diff == DIFF_NORMAL ? min(w + h, count / 2) : max(w + h, count / 2);
    int ghosts, vampires, zombies, next = 0;
    while (count_monsters(new, &ghosts, &vampires, &zombies) > filling) {
        if (next >= new->common->num_paths) break;
        if (new->common->paths[next].num_monsters == 0) { next++; continue; }
        get_unique(new, next, rs);
        next++;
    }
    for (int g = 0; g < count; g++)
        if (new->guess[g] == 7) {
            int r = random_upto(rs, 3);
            new->guess[g] = r == 0 ? 1 : r == 1 ? 2 : 4;
        }
    count_monsters(new, &ghosts, &vampires, &zombies);
    bool two_kinds = (ghosts > 0) + (vampires > 0) + (zombies > 0) >= 2;
    if (!two_kinds || (params->diff == DIFF_TRICKY && (ghosts <= 1 || vampires <= 1 || zombies <= 1))) {
        free_game(new); return NULL;
    }
    char *letters = snewn(w * h + 1, char), *e = letters;
    for (int y = 1; y < h + 1; y++)
        for (int x = 1; x < w + 1; x++) {
            int at = x + y * stride, c = new->common->xinfo[at];
            *e++ = c < 0 ? (new->common->grid[at] == CELL_MIRROR_L ? 'L' : 'R')
                 : new->guess[c] == 1 ? 'G' : new->guess[c] == 2 ? 'V' : 'Z';
        }
    *e = '\0';
    free_game(new);
    return letters;
}

/* One line per seed SEED-k (k = 0, 1, ...): the game's generator's ID ("gen"), or its
 * drawing's solution letters ("fill"), and the CPU seconds it took. */
static int each_seed(bool drawing_only, const char *param_text, const char *seed_text,
                     int count)
{
    game_params *params = default_params();
    decode_params(params, param_text);
    char *params_id = encode_params(params, true);
    for (int k = 0; k < count; k++) {
        char seed[256];
        snprintf(seed, sizeof seed, "%s-%d", seed_text, k);
        random_state *rs = random_new(seed, strlen(seed));
        double start = cpu_now();
        if (drawing_only) {
            char *letters = NULL;
            while (!(letters = draw_board(params, rs))) {}
            printf("%s\t%s\t%.6f\n", params_id, letters, cpu_now() - start);
            sfree(letters);
        } else {
            char *aux = NULL;
            char *desc = new_game_desc(params, rs, &aux, false);
            double spent = cpu_now() - start;
            printf("%s:%s\t%.6f\n", params_id, desc, spent);
            sfree(desc);
            sfree(aux);
        }
        fflush(stdout);
        random_free(rs);
    }
    sfree(params_id);
    free_params(params);
    return 0;
}

/* The solution as W*H letters, row-major: the mirrors from the puzzle, the monsters from
 * the move string "S;G0;V1;..." that solve_game returns (monster cells numbered row-major). */
static void print_solution(const game_state *state, const char *move)
{
    int w = state->common->params.w, h = state->common->params.h;
    int total = state->common->num_total;
    char *kind = snewn(total + 1, char);
    memset(kind, '?', total);
    for (const char *c = move; *c; c++) {
        if ((*c == 'G' || *c == 'V' || *c == 'Z') && isdigit((unsigned char)c[1])) {
            int index = atoi(c + 1);
            if (index >= 0 && index < total) kind[index] = *c;
        }
    }
    for (int y = 1; y <= h; y++)
        for (int x = 1; x <= w; x++) {
            int cell = state->common->grid[x + y * (w + 2)];
            int index = state->common->xinfo[x + y * (w + 2)];
            if (cell == CELL_MIRROR_L) putchar('L');
            else if (cell == CELL_MIRROR_R) putchar('R');
            else putchar(index >= 0 ? kind[index] : '?');
        }
    sfree(kind);
}

static int solve(int repeat)
{
    char line[65536];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n\t")] = '\0';
        if (!*line) continue;
        char *colon = strchr(line, ':');
        if (!colon) { printf("FAIL\tno colon in ID\t0\n"); continue; }
        *colon = '\0';
        game_params *params = default_params();
        decode_params(params, line);
        const char *bad = validate_desc(params, colon + 1);
        if (bad) { printf("FAIL\t%s\t0\n", bad); free_params(params); continue; }
        game_state *state = new_game(NULL, params, colon + 1);
        char *move = NULL;
        const char *error = NULL;
        double start = cpu_now();
        for (int r = 0; r < repeat; r++) {
            sfree(move);
            error = NULL;
            move = solve_game(state, state, NULL, &error);
        }
        double each = (cpu_now() - start) / repeat;
        if (move) {
            printf("OK\t");
            print_solution(state, move);
            printf("\t%.9f\n", each);
        } else {
            printf("FAIL\t%s\t%.9f\n", error ? error : "no answer", each);
        }
        fflush(stdout);
        sfree(move);
        free_game(state);
        free_params(params);
    }
    return 0;
}

/* One ID graded as new_game_desc grades a drawn puzzle (the loop before "Determine puzzle
 * difficulty level"); the givens of a board with givens start decided, as in solve_game. */
static void rate_one(char *line)
{
    char *colon = strchr(line, ':');
    if (!colon) { printf("bad-id 0 0 0\n"); return; }
    *colon = '\0';
    game_params *params = default_params();
    decode_params(params, line);
    if (validate_params(params, true) && params->w * params->h <= 54) {
        printf("bad-id 0 0 0\n"); free_params(params); return;
    }
    if (validate_desc(params, colon + 1)) {
        printf("bad-id 0 0 0\n"); free_params(params); return;
    }
    game_state *state = new_game(NULL, params, colon + 1);
    int n = state->common->num_total;
    int *old_guess = snewn(n, int);
    for (int p = 0; p < n; p++)
        old_guess[p] = state->guess[p] = state->common->fixed[p] ? state->guess[p] : 7;
    int depth = 0, open = 0;
    bool solved_iterative = false, inconsistent = false, solved_bruteforce = false;
    while (true) {
        bool no_change = true;
        solved_iterative = solve_iterative(state, state->common->paths);
        depth++;
        for (int p = 0; p < n; p++) {
            if (state->guess[p] != old_guess[p]) no_change = false;
            old_guess[p] = state->guess[p];
            if (state->guess[p] == 0) inconsistent = true;
        }
        if (solved_iterative || no_change) break;
    }
    double space = 1;
    if (!solved_iterative && !inconsistent) {
        for (int p = 0; p < n; p++) {
            int g = state->guess[p];
            if (g != 1 && g != 2 && g != 4) open++;
            space *= (double)((g & 1) + ((g >> 1) & 1) + ((g >> 2) & 1));
        }
        solved_bruteforce = solve_bruteforce(state, state->common->paths);
    }
    const char *level = "unsolved";
    if (inconsistent) level = "inconsistent";
    else if (solved_iterative && depth <= 3) level = "easy";
    else if ((solved_iterative && depth > 3) || (solved_bruteforce && open < 4)) level = "normal";
    else if (solved_bruteforce && depth > 0 && open >= 4) level = "tricky";
    printf("%s %d %d %.0f\n", level, depth, open, space);
    fflush(stdout);
    sfree(old_guess);
    free_game(state);
    free_params(params);
}

static int rate(void)
{
    char line[65536];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n\t")] = '\0';
        if (*line) rate_one(line);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *name = strrchr(argv[0], '/');
    name = name ? name + 1 : argv[0];
    if (!strcmp(name, "undead_rate") || (argc == 2 && !strcmp(argv[1], "rate")))
        return rate();
    if (argc == 5 && (!strcmp(argv[1], "gen") || !strcmp(argv[1], "fill")))
        return each_seed(!strcmp(argv[1], "fill"), argv[2], argv[3], atoi(argv[4]));
    if ((argc == 2 || argc == 3) && !strcmp(argv[1], "solve"))
        return solve(argc == 3 ? atoi(argv[2]) : 10);
    fprintf(stderr, "usage: undead_peer gen|fill PARAMS SEED COUNT | undead_peer solve [REPEAT] | "
                    "undead_peer rate\n");
    return 2;
}
