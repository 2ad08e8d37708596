/* The compiled endgame search of prob: endgame.EndgameSearch's _win and _value in C.
 *
 * Concepts:
 * - A search (a capsule made by `new`) holds one endgame: per placement ("world") its daggers
 *   as a set of covered cells, per covered cell its covered neighbours, its known daggers
 *   around, and the worlds in which it is a dagger. Sets are arrays of 64-bit words: at most
 *   MAX_WORDS words, so 512 worlds and 512 cells; a larger endgame stays in Python.
 * - value(search, i, worlds, open, lives): the win probability after probing cell i, as
 *   EndgameSearch._value gives it. The search is the Python one step for step: the same
 *   order of cells and groups, the same float operations in the same order (so the same
 *   doubles), the same memo of (worlds, open cells, lives) -> win chance, kept for the life
 *   of the search, and the same count of search nodes (memo misses) against the budget. Past
 *   the budget, value gives None and stores nothing for the positions it was inside, as the
 *   Python search raises out of them.
 * - restart(search, budget): a new budget for the next question of the same game (resume);
 *   nodes(search): the nodes counted since (EndgameSearch.nodes).
 *
 * Written against the limited C API (Py_LIMITED_API), as _enumerate.c: optional at install,
 * and endgame.py runs the same search in Python without it.
 */
#define Py_LIMITED_API 0x030A0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 8 /* words of a set: 512 worlds or cells */
#define CAPSULE "logic_agents.games.daggers._endgame.Search"

typedef uint64_t word;

typedef struct {
    int kind;       /* 0: a clue other than 0; 1: a cascade */
    int clue;       /* kind 0: the clue */
    int seq_at;     /* kind 1: where its clues start in the scratch sequence */
    int seq_len;    /* kind 1: how many */
} Key;

typedef struct {
    int cells, worlds, cw, ww; /* cw, ww: words of a set of cells, of worlds */
    word *dagger_bits;         /* per world, its daggers (cw words) */
    word *around_bits;         /* per cell, its covered neighbours (cw words) */
    int *known_around;         /* per cell, the known daggers around it */
    word *dagger_worlds;       /* per cell, the worlds where it is a dagger (ww words) */
    word near_known[MAX_WORDS];
    word everything[MAX_WORDS];
    int *part_len;             /* per cell, its groups, or -1 before its first probe */
    word **part_mask;          /* per cell, per group its worlds (ww words) */
    word **part_bits;          /* per cell, per group the cells its probe opens (cw words) */
    int key_words;             /* a memo key: worlds, open cells, lives */
    size_t memo_cap, memo_used;
    word *memo_keys;
    double *memo_values;
    unsigned char *memo_full;
    long long nodes, budget;
    int stop;                  /* 1: past the budget; 2: out of memory */
} Search;

static inline int popcount(const word *a, int n)
{
    int total = 0;
    for (int k = 0; k < n; k++) {
        total += __builtin_popcountll(a[k]);
    }
    return total;
}

static inline int is_empty(const word *a, int n)
{
    for (int k = 0; k < n; k++) {
        if (a[k]) {
            return 0;
        }
    }
    return 1;
}

static inline int lowest(const word *a, int n)
{
    for (int k = 0; k < n; k++) {
        if (a[k]) {
            return 64 * k + __builtin_ctzll(a[k]);
        }
    }
    return -1;
}

static inline int and_count(const word *a, const word *b, int n)
{
    int total = 0;
    for (int k = 0; k < n; k++) {
        total += __builtin_popcountll(a[k] & b[k]);
    }
    return total;
}

static inline int has(const word *a, int bit)
{
    return (int)(a[bit >> 6] >> (bit & 63) & 1);
}

/* Iterate over the set bits of the n words of `set`, lowest first, as `bit`. */
#define FOR_MEMBERS(set, n, bit)                                                     \
    for (int k_##bit = 0; k_##bit < (n); k_##bit++)                                  \
        for (word m_##bit = (set)[k_##bit]; m_##bit; m_##bit &= m_##bit - 1)         \
            for (int bit = 64 * k_##bit + __builtin_ctzll(m_##bit), once_##bit = 1;  \
                 once_##bit; once_##bit = 0)

/* -- the memo: open addressing over (worlds, open cells, lives) ------------------------ */

static uint64_t key_hash(const word *key, int n)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int k = 0; k < n; k++) {
        h ^= key[k] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    return h;
}

static void make_key(const Search *s, word *key, const word *worlds, const word *open, int lives)
{
    memcpy(key, worlds, sizeof(word) * s->ww);
    memcpy(key + s->ww, open, sizeof(word) * s->cw);
    key[s->ww + s->cw] = (word)lives;
}

/* The slot of `key`: where it is, or the empty slot it would go to. */
static size_t memo_slot(const Search *s, const word *key)
{
    size_t mask = s->memo_cap - 1, at = (size_t)key_hash(key, s->key_words) & mask;
    while (s->memo_full[at]
           && memcmp(s->memo_keys + at * s->key_words, key, sizeof(word) * s->key_words)) {
        at = (at + 1) & mask;
    }
    return at;
}

static int memo_grow(Search *s)
{
    size_t cap = s->memo_cap ? 2 * s->memo_cap : 1024;
    word *keys = malloc(sizeof(word) * s->key_words * cap);
    double *values = malloc(sizeof(double) * cap);
    unsigned char *full = calloc(cap, 1);
    if (!keys || !values || !full) {
        free(keys);
        free(values);
        free(full);
        return 0;
    }
    word *old_keys = s->memo_keys;
    double *old_values = s->memo_values;
    unsigned char *old_full = s->memo_full;
    size_t old_cap = s->memo_cap;
    s->memo_keys = keys;
    s->memo_values = values;
    s->memo_full = full;
    s->memo_cap = cap;
    for (size_t at = 0; at < old_cap; at++) {
        if (old_full[at]) {
            const word *key = old_keys + at * s->key_words;
            size_t to = memo_slot(s, key);
            memcpy(s->memo_keys + to * s->key_words, key, sizeof(word) * s->key_words);
            s->memo_values[to] = old_values[at];
            s->memo_full[to] = 1;
        }
    }
    free(old_keys);
    free(old_values);
    free(old_full);
    return 1;
}

static int memo_put(Search *s, const word *key, double value)
{
    if (2 * (s->memo_used + 1) > s->memo_cap && !memo_grow(s)) {
        return 0;
    }
    size_t at = memo_slot(s, key);
    memcpy(s->memo_keys + at * s->key_words, key, sizeof(word) * s->key_words);
    s->memo_values[at] = value;
    s->memo_full[at] = 1;
    s->memo_used++;
    return 1;
}

/* -- what a probe shows --------------------------------------------------------------- */

/* Add to `into` the covered neighbours of every cell of `cells` (sets of cells). */
static void or_around(const Search *s, const word *cells, word *into)
{
    int cw = s->cw;
    FOR_MEMBERS(cells, cw, j) {
        const word *around = s->around_bits + (size_t)j * cw;
        for (int k = 0; k < cw; k++) {
            into[k] |= around[k];
        }
    }
}

/* EndgameSearch._shows: the cells probing the 0 at cell i opens in world w (into `opened`),
 * and the clues of those that are not 0, in bit order (appended to seq; their count). */
static int shows(const Search *s, int w, int i, word *opened, int *seq)
{
    int cw = s->cw;
    const word *daggers = s->dagger_bits + (size_t)w * cw;
    word clued[MAX_WORDS], zeros[MAX_WORDS], frontier[MAX_WORDS], grow[MAX_WORDS];
    memcpy(clued, s->near_known, sizeof(word) * cw);
    or_around(s, daggers, clued);
    for (int k = 0; k < cw; k++) {
        zeros[k] = s->everything[k] & ~clued[k] & ~daggers[k];
        opened[k] = frontier[k] = 0;
    }
    opened[i >> 6] = frontier[i >> 6] = (word)1 << (i & 63);
    while (!is_empty(frontier, cw)) {
        word reach[MAX_WORDS];
        for (int k = 0; k < cw; k++) {
            reach[k] = frontier[k] & zeros[k];
            grow[k] = 0;
        }
        or_around(s, reach, grow);
        for (int k = 0; k < cw; k++) {
            frontier[k] = grow[k] & ~opened[k];
            opened[k] |= grow[k];
        }
    }
    word boundary[MAX_WORDS];
    for (int k = 0; k < cw; k++) {
        boundary[k] = opened[k] & clued[k];
    }
    int n = 0;
    FOR_MEMBERS(boundary, cw, j) {
        seq[n++] = s->known_around[j] + and_count(daggers, s->around_bits + (size_t)j * cw, cw);
    }
    return n;
}

/* EndgameSearch._partition: the worlds where cell i is safe, grouped by what its probe shows,
 * in the order the groups are first met; 0 when memory runs out. */
static int partition(Search *s, int i)
{
    int cw = s->cw, ww = s->ww, groups = 0;
    Key *keys = malloc(sizeof(Key) * (s->worlds + 1));
    word *masks = calloc((size_t)(s->worlds + 1) * ww, sizeof(word));
    word *bits = calloc((size_t)(s->worlds + 1) * cw, sizeof(word));
    int *seqs = malloc(sizeof(int) * ((size_t)s->worlds * s->cells + 1));
    int seq_used = 0;
    if (!keys || !masks || !bits || !seqs) {
        free(keys);
        free(masks);
        free(bits);
        free(seqs);
        return 0;
    }
    const word *around = s->around_bits + (size_t)i * cw;
    for (int w = 0; w < s->worlds; w++) {
        const word *daggers = s->dagger_bits + (size_t)w * cw;
        if (has(daggers, i)) {
            continue;
        }
        int clue = s->known_around[i] + and_count(daggers, around, cw);
        Key key = {0, clue, 0, 0};
        word opened[MAX_WORDS];
        if (clue == 0) {
            key.kind = 1;
            key.seq_at = seq_used;
            key.seq_len = shows(s, w, i, opened, seqs + seq_used);
        }
        int g = 0;
        for (; g < groups; g++) {
            const Key *other = keys + g;
            if (other->kind != key.kind) {
                continue;
            }
            if (key.kind == 0 ? other->clue == clue
                    : (other->seq_len == key.seq_len
                       && !memcmp(bits + (size_t)g * cw, opened, sizeof(word) * cw)
                       && !memcmp(seqs + other->seq_at, seqs + key.seq_at,
                                  sizeof(int) * key.seq_len))) {
                break;
            }
        }
        if (g == groups) { /* a new group: its key's sequence stays in the scratch */
            keys[groups++] = key;
            if (key.kind == 1) {
                seq_used += key.seq_len;
                memcpy(bits + (size_t)g * cw, opened, sizeof(word) * cw);
            } else {
                bits[(size_t)g * cw + (i >> 6)] = (word)1 << (i & 63);
            }
        }
        masks[(size_t)g * ww + (w >> 6)] |= (word)1 << (w & 63);
    }
    free(keys);
    free(seqs);
    s->part_len[i] = groups;
    s->part_mask[i] = masks;
    s->part_bits[i] = bits;
    return 1;
}

/* -- the search ----------------------------------------------------------------------- */

static double win(Search *s, const word *worlds, const word *open, int lives);

/* EndgameSearch._value. */
static double value(Search *s, int i, const word *worlds, const word *open, int lives)
{
    int cw = s->cw, ww = s->ww;
    if (s->part_len[i] < 0 && !partition(s, i)) {
        s->stop = 2;
        return 0.0;
    }
    int n = popcount(worlds, ww);
    double out = 0.0;
    word group[MAX_WORDS], opened[MAX_WORDS];
    for (int g = 0; g < s->part_len[i]; g++) {
        const word *mask = s->part_mask[i] + (size_t)g * ww;
        const word *bits = s->part_bits[i] + (size_t)g * cw;
        for (int k = 0; k < ww; k++) {
            group[k] = mask[k] & worlds[k];
        }
        if (is_empty(group, ww)) {
            continue;
        }
        for (int k = 0; k < cw; k++) {
            opened[k] = open[k] | bits[k];
        }
        double share = (double)popcount(group, ww) / (double)n;
        double chance = win(s, group, opened, lives);
        if (s->stop) {
            return 0.0;
        }
        out += share * chance;
    }
    const word *dagger_worlds = s->dagger_worlds + (size_t)i * ww;
    int hits = and_count(worlds, dagger_worlds, ww);
    if (hits && hits != n && lives > 1) {
        for (int k = 0; k < ww; k++) {
            group[k] = worlds[k] & dagger_worlds[k];
        }
        memcpy(opened, open, sizeof(word) * cw);
        opened[i >> 6] |= (word)1 << (i & 63);
        double share = (double)hits / (double)n;
        double chance = win(s, group, opened, lives - 1);
        if (s->stop) {
            return 0.0;
        }
        out += share * chance;
    }
    return out;
}

typedef struct {
    int hits, cell;
} Candidate;

static int by_hits_then_cell(const void *a, const void *b)
{
    const Candidate *x = a, *y = b;
    if (x->hits != y->hits) {
        return x->hits < y->hits ? -1 : 1;
    }
    return x->cell < y->cell ? -1 : x->cell > y->cell;
}

/* EndgameSearch._win, without its memo. */
static double search(Search *s, const word *worlds, const word *open, int lives)
{
    int cw = s->cw, ww = s->ww;
    int n = popcount(worlds, ww);
    if (n <= 1) {
        return 1.0; /* one placement left: every safe cell is known */
    }
    int some = lowest(worlds, ww);
    if (n == 2) { /* two left: told apart by a safe probe, or a coin toss */
        if (lives > 1) {
            return 1.0; /* a hit shows which one, and a life is left to finish */
        }
        word rest[MAX_WORDS];
        memcpy(rest, worlds, sizeof(word) * ww);
        rest[some >> 6] &= ~((word)1 << (some & 63));
        const word *a = s->dagger_bits + (size_t)some * cw;
        const word *b = s->dagger_bits + (size_t)lowest(rest, ww) * cw;
        word differ[MAX_WORDS], near[MAX_WORDS];
        for (int k = 0; k < cw; k++) {
            differ[k] = a[k] ^ b[k];
            near[k] = 0;
        }
        or_around(s, differ, near);
        for (int k = 0; k < cw; k++) {
            near[k] &= ~(a[k] | b[k]);
        }
        FOR_MEMBERS(near, cw, c) {
            const word *around = s->around_bits + (size_t)c * cw;
            if (and_count(a, around, cw) != and_count(b, around, cw)) {
                return 1.0;
            }
        }
        return 0.5;
    }
    /* won: every covered cell not yet open is a dagger */
    const word *daggers = s->dagger_bits + (size_t)some * cw;
    int won = 1;
    word unopened[MAX_WORDS];
    for (int k = 0; k < cw; k++) {
        if ((daggers[k] | open[k]) != s->everything[k]) {
            won = 0;
        }
        unopened[k] = s->everything[k] & ~open[k];
    }
    if (won) {
        return 1.0;
    }
    /* a cell safe in every world is probed first */
    FOR_MEMBERS(unopened, cw, i) {
        if (!and_count(worlds, s->dagger_worlds + (size_t)i * ww, ww)) {
            return value(s, i, worlds, open, lives);
        }
    }
    int count = popcount(unopened, cw);
    Candidate *candidates = malloc(sizeof(Candidate) * (count ? count : 1));
    if (!candidates) {
        s->stop = 2;
        return 0.0;
    }
    int c = 0;
    FOR_MEMBERS(unopened, cw, i) {
        candidates[c].hits = and_count(worlds, s->dagger_worlds + (size_t)i * ww, ww);
        candidates[c++].cell = i;
    }
    qsort(candidates, count, sizeof(Candidate), by_hits_then_cell);
    double best = 0.0;
    for (c = 0; c < count; c++) {
        if (lives == 1 && (double)(n - candidates[c].hits) / (double)n <= best) {
            break; /* safest first: with one life a probe wins at most when it is safe */
        }
        double v = value(s, candidates[c].cell, worlds, open, lives);
        if (s->stop) {
            break;
        }
        if (v > best) {
            best = v;
        }
        if (best >= 1.0) {
            break;
        }
    }
    free(candidates);
    return s->stop ? 0.0 : best;
}

/* EndgameSearch.win: the memo, then a search node counted against the budget. */
static double win(Search *s, const word *worlds, const word *open, int lives)
{
    word key[3 * MAX_WORDS];
    make_key(s, key, worlds, open, lives);
    if (s->memo_cap) {
        size_t at = memo_slot(s, key);
        if (s->memo_full[at]) {
            return s->memo_values[at];
        }
    }
    if (++s->nodes > s->budget) {
        s->stop = 1;
        return 0.0;
    }
    double found = search(s, worlds, open, lives);
    if (s->stop) {
        return 0.0;
    }
    if (!memo_put(s, key, found)) {
        s->stop = 2;
        return 0.0;
    }
    return found;
}

/* -- the module ----------------------------------------------------------------------- */

static void free_search(Search *s)
{
    for (int i = 0; i < s->cells; i++) {
        if (s->part_mask) {
            free(s->part_mask[i]);
        }
        if (s->part_bits) {
            free(s->part_bits[i]);
        }
    }
    free(s->part_len);
    free(s->part_mask);
    free(s->part_bits);
    free(s->dagger_bits);
    free(s->around_bits);
    free(s->known_around);
    free(s->dagger_worlds);
    free(s->memo_keys);
    free(s->memo_values);
    free(s->memo_full);
    free(s);
}

static void release(PyObject *capsule)
{
    Search *s = PyCapsule_GetPointer(capsule, CAPSULE);
    if (s != NULL) {
        free_search(s);
    }
}

/* Read a bytes argument of exactly `size` bytes into `to`; 0 (an exception set) if not. */
static int read_bytes(PyObject *arg, const char *what, void *to, Py_ssize_t size)
{
    char *data;
    Py_ssize_t length;
    if (PyBytes_AsStringAndSize(arg, &data, &length) < 0) {
        return 0;
    }
    if (length != size) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %zd", what, length, size);
        return 0;
    }
    memcpy(to, data, (size_t)size);
    return 1;
}

static PyObject *new_search(PyObject *Py_UNUSED(self), PyObject *args)
{
    int cells, worlds;
    long long budget;
    PyObject *dagger_bits, *around_bits, *known_around;
    if (!PyArg_ParseTuple(args, "iiOOOL", &cells, &worlds, &dagger_bits, &around_bits,
                          &known_around, &budget)) {
        return NULL;
    }
    if (cells < 1 || worlds < 1 || cells > 64 * MAX_WORDS || worlds > 64 * MAX_WORDS) {
        Py_RETURN_NONE; /* the Python search takes it */
    }
    Search *s = calloc(1, sizeof(Search));
    if (s == NULL) {
        return PyErr_NoMemory();
    }
    s->cells = cells;
    s->worlds = worlds;
    s->cw = (cells + 63) / 64;
    s->ww = (worlds + 63) / 64;
    s->key_words = s->ww + s->cw + 1;
    s->budget = budget;
    int cw = s->cw, ww = s->ww;
    s->dagger_bits = malloc(sizeof(word) * (size_t)worlds * cw);
    s->around_bits = malloc(sizeof(word) * (size_t)cells * cw);
    s->known_around = malloc(sizeof(int) * cells);
    s->dagger_worlds = calloc((size_t)cells * ww, sizeof(word));
    s->part_len = malloc(sizeof(int) * cells);
    s->part_mask = calloc(cells, sizeof(word *));
    s->part_bits = calloc(cells, sizeof(word *));
    unsigned char *known = malloc(cells);
    if (!s->dagger_bits || !s->around_bits || !s->known_around || !s->dagger_worlds
            || !s->part_len || !s->part_mask || !s->part_bits || !known) {
        PyErr_NoMemory();
        goto fail;
    }
    if (!read_bytes(dagger_bits, "dagger_bits", s->dagger_bits, (Py_ssize_t)(sizeof(word) * worlds * cw))
            || !read_bytes(around_bits, "around_bits", s->around_bits, (Py_ssize_t)(sizeof(word) * cells * cw))
            || !read_bytes(known_around, "known_around", known, cells)) {
        goto fail;
    }
    for (int i = 0; i < cells; i++) {
        s->known_around[i] = known[i];
        s->part_len[i] = -1;
        if (known[i]) { /* the cells next to a known dagger: their clue is never 0 */
            s->near_known[i >> 6] |= (word)1 << (i & 63);
        }
    }
    for (int k = 0; k < cw; k++) {
        int low = 64 * k, high = cells - low < 64 ? cells - low : 64;
        s->everything[k] = high == 64 ? ~(word)0 : (((word)1 << high) - 1);
    }
    for (int w = 0; w < worlds; w++) {
        const word *daggers = s->dagger_bits + (size_t)w * cw;
        for (int k = 0; k < cw; k++) {
            if (daggers[k] & ~s->everything[k]) {
                PyErr_SetString(PyExc_ValueError, "dagger_bits: a dagger past the last cell");
                goto fail;
            }
        }
        FOR_MEMBERS(daggers, cw, i) {
            s->dagger_worlds[(size_t)i * ww + (w >> 6)] |= (word)1 << (w & 63);
        }
    }
    for (int i = 0; i < cells; i++) {
        const word *around = s->around_bits + (size_t)i * cw;
        for (int k = 0; k < cw; k++) {
            if (around[k] & ~s->everything[k]) {
                PyErr_SetString(PyExc_ValueError, "around_bits: a neighbour past the last cell");
                goto fail;
            }
        }
    }
    free(known);
    PyObject *capsule = PyCapsule_New(s, CAPSULE, release);
    if (capsule == NULL) {
        free_search(s);
    }
    return capsule;
fail:
    free(known);
    free_search(s);
    return NULL;
}

static Search *search_of(PyObject *capsule)
{
    return PyCapsule_GetPointer(capsule, CAPSULE);
}

static PyObject *search_value(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *capsule, *worlds_arg, *open_arg;
    int i, lives;
    if (!PyArg_ParseTuple(args, "OiOOi", &capsule, &i, &worlds_arg, &open_arg, &lives)) {
        return NULL;
    }
    Search *s = search_of(capsule);
    if (s == NULL) {
        return NULL;
    }
    word worlds[MAX_WORDS], open[MAX_WORDS];
    if (!read_bytes(worlds_arg, "worlds", worlds, (Py_ssize_t)(sizeof(word) * s->ww))
            || !read_bytes(open_arg, "open", open, (Py_ssize_t)(sizeof(word) * s->cw))) {
        return NULL;
    }
    if (i < 0 || i >= s->cells || lives < 0 || is_empty(worlds, s->ww)) {
        PyErr_SetString(PyExc_ValueError, "value: a cell out of range, lives below 0 or no world");
        return NULL;
    }
    s->stop = 0;
    double found = value(s, i, worlds, open, lives);
    if (s->stop == 2) {
        return PyErr_NoMemory();
    }
    if (s->stop == 1) {
        Py_RETURN_NONE;
    }
    return PyFloat_FromDouble(found);
}

static PyObject *search_restart(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *capsule;
    long long budget;
    if (!PyArg_ParseTuple(args, "OL", &capsule, &budget)) {
        return NULL;
    }
    Search *s = search_of(capsule);
    if (s == NULL) {
        return NULL;
    }
    s->nodes = 0;
    s->budget = budget;
    Py_RETURN_NONE;
}

static PyObject *search_nodes(PyObject *Py_UNUSED(self), PyObject *capsule)
{
    Search *s = search_of(capsule);
    if (s == NULL) {
        return NULL;
    }
    return PyLong_FromLongLong(s->nodes);
}

static PyMethodDef methods[] = {
    {"new", new_search, METH_VARARGS,
     "new(cells, worlds, dagger_bits, around_bits, known_around, budget) -> a "
     "search (a capsule), or None past 512 cells or worlds. Sets are little-endian 64-bit "
     "words: per world its daggers, per cell its covered neighbours (each ceil(cells/64) "
     "words); known_around is a byte a cell."},
    {"value", search_value, METH_VARARGS,
     "value(search, i, worlds, open, lives) -> EndgameSearch._value, or None past the budget."},
    {"restart", search_restart, METH_VARARGS,
     "restart(search, budget): count search nodes from 0 again, against a new budget."},
    {"nodes", search_nodes, METH_O,
     "nodes(search) -> the search nodes counted since the search was made or restarted."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_endgame",
    "The compiled endgame search of prob: EndgameSearch's win chances, in C.",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__endgame(void)
{
    return PyModule_Create(&module);
}
