/* The compiled single-point bookkeeping of the Daggers agents: clues.OpenClues in C.
 *
 * Concepts:
 * - A state (a capsule made by `new`) follows one board: per cell its shown token (the row
 *   tuples of the last grid read are kept, so an unchanged row, handed out again by the
 *   world, is skipped by identity), its code (covered, flagged, hit, a clue's value, or
 *   none), and per cell the counts of its covered and its marked (flagged or hit)
 *   neighbours. A changed cell moves its neighbours' counts; it and its neighbours are
 *   read again: a clue with a covered neighbour is open, and fresh until a pass reads it.
 *   A grid starts all covered, as clues.GridChanges assumes of a first look.
 * - entries(state, grid, fresh): the open clues, or only the fresh ones (then no longer
 *   fresh), in reading order, as (cell, clue, covered neighbours, marked) - what
 *   OpenClues.neighbourhoods and OpenClues.fresh give.
 * - proofs(state, grid): single_point_proofs over the fresh clues, as two lists of (cell,
 *   clue cell): the probes (a clue whose daggers are all marked), then the flags (a clue
 *   with as many covered neighbours as daggers missing) that are not probes, each cell with
 *   the first clue that proves it. The fresh clues are then read.
 * - read(state, grid): brings the state up to the grid, and says how many reads changed
 *   something (a cache of entries is good while that number stays).
 * - fresh(state, cells): the fresh clues' indices, and with `cells` sets them: a state is
 *   remade from the last grid and these when an OpenClues is unpickled (a capsule does not
 *   pickle).
 * Tokens are compared as strings, as GridChanges compares them; a token that is not ASCII
 * is a ValueError, and OpenClues goes on in Python.
 *
 * Written against the limited C API (Py_LIMITED_API), as _enumerate.c.
 */
#define Py_LIMITED_API 0x030A0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#define CAPSULE "logic_agents.games.daggers._clues.State"
#define COVERED (-1)
#define FLAGGED (-2)
#define HIT (-3)
#define NO_CLUE (-4)

typedef struct {
    int height, width, cells;
    int *around_at, *around_len, *around; /* each cell's neighbours, back to back */
    int *code;                            /* per cell: a clue (>= 0) or one of the codes */
    int *covered, *marked;                /* per cell: its covered, its marked neighbours */
    unsigned char *open, *fresh;
    int *stale, *stale_mark, stale_count, epoch; /* cells to read again, each once */
    int *proved, *proof_mark, proof_epoch;       /* per cell, the clue proving it this pass */
    PyObject **rows;                      /* the last grid's rows (owned), or NULL */
    PyObject *cells_of;                   /* the (row, col) tuple of each index (owned) */
    PyObject *tokens[4];                  /* covered, flagged, hit, gold (owned) */
    long version;
} State;

static void free_state(State *s)
{
    if (s->rows != NULL) {
        for (int r = 0; r < s->height; r++) {
            Py_XDECREF(s->rows[r]);
        }
    }
    for (int t = 0; t < 4; t++) {
        Py_XDECREF(s->tokens[t]);
    }
    Py_XDECREF(s->cells_of);
    free(s->rows);
    free(s->around_at);
    free(s->around_len);
    free(s->around);
    free(s->code);
    free(s->covered);
    free(s->marked);
    free(s->open);
    free(s->fresh);
    free(s->stale);
    free(s->stale_mark);
    free(s->proved);
    free(s->proof_mark);
    free(s);
}

static void release(PyObject *capsule)
{
    State *s = PyCapsule_GetPointer(capsule, CAPSULE);
    if (s != NULL) {
        free_state(s);
    }
}

/* 1 when `a` and `b` are the same string, 0 when not, -1 on an error. */
static int same_token(PyObject *a, PyObject *b)
{
    if (a == b) {
        return 1;
    }
    if (!PyUnicode_Check(a) || !PyUnicode_Check(b)) {
        PyErr_SetString(PyExc_TypeError, "a grid's tokens are strings");
        return -1;
    }
    int compared = PyUnicode_Compare(a, b);
    if (compared == -1 && PyErr_Occurred()) {
        return -1;
    }
    return compared == 0;
}

/* A token's code, as world.clue_value reads it; -100 on an error. */
static int decode(State *s, PyObject *token)
{
    static const int codes[3] = {COVERED, FLAGGED, HIT};
    for (int t = 0; t < 4; t++) {
        int same = same_token(token, s->tokens[t]);
        if (same < 0) {
            return -100;
        }
        if (same) {
            return t < 3 ? codes[t] : 0; /* gold reads as 0 */
        }
    }
    Py_ssize_t length;
    const char *text = PyUnicode_AsUTF8AndSize(token, &length);
    if (text == NULL) {
        return -100;
    }
    int value = 0;
    for (Py_ssize_t k = 0; k < length; k++) {
        unsigned char ch = (unsigned char)text[k];
        if (ch >= 0x80) {
            PyErr_SetString(PyExc_ValueError, "a token that is not ASCII");
            return -100;
        }
        if (ch < '0' || ch > '9') {
            return NO_CLUE;
        }
        if (value > 100000) {
            PyErr_SetString(PyExc_ValueError, "a clue too large to be one");
            return -100;
        }
        value = 10 * value + (ch - '0');
    }
    return length ? value : NO_CLUE;
}

static void mark_stale(State *s, int i)
{
    if (s->stale_mark[i] != s->epoch) {
        s->stale_mark[i] = s->epoch;
        s->stale[s->stale_count++] = i;
    }
}

static void change(State *s, int i, int now)
{
    int before = s->code[i];
    s->code[i] = now;
    int covers = (now == COVERED) - (before == COVERED);
    int marks = (now == FLAGGED || now == HIT) - (before == FLAGGED || before == HIT);
    const int *around = s->around + s->around_at[i];
    for (int k = 0; k < s->around_len[i]; k++) {
        int j = around[k];
        s->covered[j] += covers;
        s->marked[j] += marks;
        mark_stale(s, j);
    }
    mark_stale(s, i);
}

/* Bring the state up to `grid`; -1 (an exception set) if it is not a grid of the board. */
static int update(State *s, PyObject *grid)
{
    if (!PyTuple_Check(grid) || PyTuple_Size(grid) != s->height) {
        PyErr_SetString(PyExc_ValueError, "not a grid of this board's height");
        return -1;
    }
    s->epoch++;
    s->stale_count = 0;
    for (int r = 0; r < s->height; r++) {
        PyObject *row = PyTuple_GetItem(grid, r);
        PyObject *old = s->rows[r];
        if (row == old) {
            continue; /* the world hands an unchanged row out again */
        }
        if (!PyTuple_Check(row) || PyTuple_Size(row) != s->width) {
            PyErr_SetString(PyExc_ValueError, "not a grid of this board's width");
            return -1;
        }
        for (int c = 0; c < s->width; c++) {
            PyObject *token = PyTuple_GetItem(row, c);
            PyObject *before = old != NULL ? PyTuple_GetItem(old, c) : s->tokens[0];
            int same = same_token(token, before);
            if (same < 0) {
                return -1;
            }
            if (same) {
                continue;
            }
            int code = decode(s, token);
            if (code == -100) {
                return -1;
            }
            change(s, r * s->width + c, code);
        }
        Py_INCREF(row);
        s->rows[r] = row;
        Py_XDECREF(old);
    }
    for (int k = 0; k < s->stale_count; k++) {
        int j = s->stale[k];
        s->open[j] = s->code[j] >= 0 && s->covered[j] > 0;
        if (s->open[j]) {
            s->fresh[j] = 1;
        }
    }
    if (s->stale_count) {
        s->version++;
    }
    return 0;
}

static State *state_of(PyObject *capsule)
{
    return PyCapsule_GetPointer(capsule, CAPSULE);
}

/* The state of `capsule`, brought up to `grid`; NULL (an exception set) if either is bad. */
static State *updated(PyObject *capsule, PyObject *grid)
{
    State *s = state_of(capsule);
    return s == NULL || update(s, grid) < 0 ? NULL : s;
}

static PyObject *cell_of(State *s, int i)
{
    PyObject *cell = PyList_GetItem(s->cells_of, i);
    Py_XINCREF(cell);
    return cell;
}

/* (cell, clue, [covered neighbours], marked) of open clue i. */
static PyObject *entry(State *s, int i)
{
    PyObject *unknown = PyList_New(0);
    if (unknown == NULL) {
        return NULL;
    }
    const int *around = s->around + s->around_at[i];
    for (int k = 0; k < s->around_len[i]; k++) {
        if (s->code[around[k]] == COVERED
                && PyList_Append(unknown, PyList_GetItem(s->cells_of, around[k])) < 0) {
            Py_DECREF(unknown);
            return NULL;
        }
    }
    PyObject *cell = cell_of(s, i);
    if (cell == NULL) {
        Py_DECREF(unknown);
        return NULL;
    }
    return Py_BuildValue("(NiNi)", cell, s->code[i], unknown, s->marked[i]);
}

static PyObject *entries_of(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *capsule, *grid;
    int fresh_only;
    State *s;
    if (!PyArg_ParseTuple(args, "OOp", &capsule, &grid, &fresh_only)
            || (s = updated(capsule, grid)) == NULL) {
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        return NULL;
    }
    for (int i = 0; i < s->cells; i++) {
        if (fresh_only) {
            if (!s->fresh[i]) {
                continue;
            }
            s->fresh[i] = 0;
        }
        if (!s->open[i]) {
            continue;
        }
        PyObject *found = entry(s, i);
        if (found == NULL || PyList_Append(out, found) < 0) {
            Py_XDECREF(found);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(found);
    }
    return out;
}

/* Append (cell, clue cell) to `to`; -1 on an error. */
static int append_pair(State *s, PyObject *to, int cell, int clue)
{
    PyObject *pair = Py_BuildValue("(NN)", cell_of(s, cell), cell_of(s, clue));
    if (pair == NULL) {
        return -1;
    }
    int done = PyList_Append(to, pair);
    Py_DECREF(pair);
    return done;
}

static PyObject *proofs_of(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *capsule, *grid;
    State *s;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &grid) || (s = updated(capsule, grid)) == NULL) {
        return NULL;
    }
    /* proof_mark: 2 * pass + 1 for a probe, 2 * pass + 2 for a flag (a cell proved both
     * ways stays a probe, as in the Python pass) */
    s->proof_epoch++;
    int probe_mark = 2 * s->proof_epoch + 1, flag_mark = 2 * s->proof_epoch + 2;
    int *flag_order = malloc(sizeof(int) * (s->cells ? s->cells : 1));
    int flag_count = 0;
    PyObject *probes = PyList_New(0), *flags = PyList_New(0);
    if (flag_order == NULL || probes == NULL || flags == NULL) {
        free(flag_order);
        Py_XDECREF(probes);
        Py_XDECREF(flags);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < s->cells; i++) {
        if (!s->fresh[i]) {
            continue;
        }
        s->fresh[i] = 0;
        if (!s->open[i]) {
            continue;
        }
        int k = s->code[i], marked = s->marked[i];
        int to_probe = marked == k, to_flag = !to_probe && s->covered[i] == k - marked;
        if (!to_probe && !to_flag) {
            continue;
        }
        const int *around = s->around + s->around_at[i];
        for (int a = 0; a < s->around_len[i]; a++) {
            int n = around[a];
            if (s->code[n] != COVERED) {
                continue;
            }
            if (to_probe && s->proof_mark[n] != probe_mark) {
                s->proof_mark[n] = probe_mark; /* first proved a probe: a flag no more */
                if (append_pair(s, probes, n, i) < 0) {
                    goto fail;
                }
            } else if (to_flag && s->proof_mark[n] != probe_mark && s->proof_mark[n] != flag_mark) {
                s->proof_mark[n] = flag_mark;
                s->proved[n] = i;
                flag_order[flag_count++] = n;
            }
        }
    }
    for (int f = 0; f < flag_count; f++) {
        int n = flag_order[f];
        if (s->proof_mark[n] == flag_mark && append_pair(s, flags, n, s->proved[n]) < 0) {
            goto fail;
        }
    }
    free(flag_order);
    return Py_BuildValue("(NN)", probes, flags);
fail:
    free(flag_order);
    Py_DECREF(probes);
    Py_DECREF(flags);
    return NULL;
}

static PyObject *read_grid(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *capsule, *grid;
    State *s;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &grid) || (s = updated(capsule, grid)) == NULL) {
        return NULL;
    }
    return PyLong_FromLong(s->version);
}

static PyObject *new_state(PyObject *Py_UNUSED(self), PyObject *args)
{
    int height, width;
    PyObject *around_of, *cells_of, *covered, *flagged, *hit, *gold;
    if (!PyArg_ParseTuple(args, "iiO!O!UUUU", &height, &width, &PyList_Type, &around_of,
                          &PyList_Type, &cells_of, &covered, &flagged, &hit, &gold)) {
        return NULL;
    }
    if (height < 1 || width < 1 || height > 100000 / width) {
        PyErr_SetString(PyExc_ValueError, "a board of 1 to 100,000 cells");
        return NULL;
    }
    int cells = height * width;
    if (PyList_Size(around_of) != cells || PyList_Size(cells_of) != cells) {
        PyErr_SetString(PyExc_ValueError, "one neighbour tuple and one cell a cell");
        return NULL;
    }
    State *s = calloc(1, sizeof(State));
    if (s == NULL) {
        return PyErr_NoMemory();
    }
    s->height = height;
    s->width = width;
    s->cells = cells;
    PyObject *tokens[4] = {covered, flagged, hit, gold};
    for (int t = 0; t < 4; t++) {
        Py_INCREF(tokens[t]);
        s->tokens[t] = tokens[t];
    }
    Py_INCREF(cells_of);
    s->cells_of = cells_of;
    int total = 0;
    for (int i = 0; i < cells; i++) {
        PyObject *around = PyList_GetItem(around_of, i);
        if (!PyTuple_Check(around)) {
            PyErr_SetString(PyExc_TypeError, "a cell's neighbours are a tuple of indices");
            free_state(s);
            return NULL;
        }
        total += (int)PyTuple_Size(around);
    }
    s->around_at = malloc(sizeof(int) * cells);
    s->around_len = malloc(sizeof(int) * cells);
    s->around = malloc(sizeof(int) * (total ? total : 1));
    s->code = malloc(sizeof(int) * cells);
    s->covered = malloc(sizeof(int) * cells);
    s->marked = calloc(cells, sizeof(int));
    s->open = calloc(cells, 1);
    s->fresh = calloc(cells, 1);
    s->stale = malloc(sizeof(int) * cells);
    s->stale_mark = calloc(cells, sizeof(int));
    s->proved = calloc(cells, sizeof(int));
    s->proof_mark = calloc(cells, sizeof(int));
    s->rows = calloc(height, sizeof(PyObject *));
    if (!s->around_at || !s->around_len || !s->around || !s->code || !s->covered || !s->marked
            || !s->open || !s->fresh || !s->stale || !s->stale_mark || !s->proved
            || !s->proof_mark || !s->rows) {
        free_state(s);
        return PyErr_NoMemory();
    }
    int at = 0;
    for (int i = 0; i < cells; i++) {
        PyObject *around = PyList_GetItem(around_of, i);
        Py_ssize_t count = PyTuple_Size(around);
        s->around_at[i] = at;
        s->around_len[i] = (int)count;
        for (Py_ssize_t k = 0; k < count; k++) {
            long j = PyLong_AsLong(PyTuple_GetItem(around, k));
            if (j == -1 && PyErr_Occurred()) {
                free_state(s);
                return NULL;
            }
            if (j < 0 || j >= cells) {
                PyErr_SetString(PyExc_ValueError, "a neighbour index out of the board");
                free_state(s);
                return NULL;
            }
            s->around[at++] = (int)j;
        }
        s->code[i] = COVERED;
        s->covered[i] = (int)count;
    }
    PyObject *capsule = PyCapsule_New(s, CAPSULE, release);
    if (capsule == NULL) {
        free_state(s);
    }
    return capsule;
}

static PyObject *fresh_cells(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *capsule, *given = Py_None;
    if (!PyArg_ParseTuple(args, "O|O", &capsule, &given)) {
        return NULL;
    }
    State *s = state_of(capsule);
    if (s == NULL) {
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        return NULL;
    }
    for (int i = 0; i < s->cells; i++) {
        if (s->fresh[i]) {
            PyObject *index = PyLong_FromLong(i);
            if (index == NULL || PyList_Append(out, index) < 0) {
                Py_XDECREF(index);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(index);
        }
    }
    if (given == Py_None) {
        return out;
    }
    if (!PyList_Check(given)) {
        Py_DECREF(out);
        PyErr_SetString(PyExc_TypeError, "the fresh cells are a list of indices");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < PyList_Size(given); k++) { /* checked first: all or none */
        long i = PyLong_AsLong(PyList_GetItem(given, k));
        if ((i == -1 && PyErr_Occurred()) || i < 0 || i >= s->cells) {
            Py_DECREF(out);
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "a fresh cell off the board");
            }
            return NULL;
        }
    }
    memset(s->fresh, 0, s->cells);
    for (Py_ssize_t k = 0; k < PyList_Size(given); k++) {
        s->fresh[PyLong_AsLong(PyList_GetItem(given, k))] = 1;
    }
    return out;
}

static PyMethodDef methods[] = {
    {"new", new_state, METH_VARARGS,
     "new(height, width, around_of, cells_of, covered, flagged, hit, gold) -> a state (a "
     "capsule): around_of, per cell index its neighbours' indices (a tuple); cells_of, per "
     "index its (row, col); then the four tokens that are not digits."},
    {"entries", entries_of, METH_VARARGS,
     "entries(state, grid, fresh) -> the open clues (or the fresh ones, read now) in reading "
     "order, as (cell, clue, covered neighbours, marked)."},
    {"proofs", proofs_of, METH_VARARGS,
     "proofs(state, grid) -> (probes, flags) of the fresh clues, each a list of (cell, clue "
     "cell)."},
    {"fresh", fresh_cells, METH_VARARGS,
     "fresh(state, cells=None) -> the indices of the fresh clues; with `cells` (a list of "
     "indices), those become the fresh ones (what a pickled OpenClues carries)."},
    {"read", read_grid, METH_VARARGS,
     "read(state, grid) -> how many reads changed something, this one included."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_clues",
    "The compiled single-point bookkeeping of the Daggers agents: OpenClues in C.",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__clues(void)
{
    return PyModule_Create(&module);
}
