/* The compiled kernel of prob's odds: components.enumerate_component's backtracking search.
 *
 * Concepts:
 * - enumerate_component(cons, free): components.enumerate_component in C. The classes are
 *   found and ordered as the Python code finds and orders them (cells in order of first
 *   sight, the class touching the most constraints already touched first), and the search is
 *   the same depth-first search as the Python `go`, with the same bounds per class.
 * - Exact integers: a leaf's weight is a product of binomials C(size, n), and the table sums
 *   weights (W) and weights times counts (E). With at most MAX_CELLS cells in a component,
 *   W <= 2^MAX_CELLS and E <= 2^MAX_CELLS * MAX_CELLS, so unsigned 128-bit integers never
 *   overflow; a larger component gets None back, and the caller searches in Python.
 * - The result is the Python function's: (classes, {key: [W, [E per class]]}), the keys in
 *   the order the search first reaches them.
 *
 * Written against the limited C API (Py_LIMITED_API), so one build serves every Python from
 * 3.10 on. Built by setuptools as an optional extension: without a C compiler the install
 * goes on and components.py uses its pure-Python search, which gives the same tables.
 */
#define Py_LIMITED_API 0x030A0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CELLS 100 /* cells of a component the kernel takes: 2^100 * 100 < 2^128 */

typedef unsigned __int128 u128;

typedef struct {
    int classes;          /* classes in search order */
    const int *sizes;     /* cells per class */
    const int *owner_at;  /* per class, the offset of its constraints in `owners` */
    const int *owner_len; /* per class, how many constraints bound it */
    const int *owners;    /* the constraints per class, back to back */
    const char *in_free;  /* per class, whether it lies under the free constraint */
    int *need;            /* per constraint, the daggers still needed (mutated, restored) */
    int *left;            /* per constraint, its cells not yet assigned (mutated, restored) */
    int *counts;          /* per class, the daggers assigned now */
    int keyed;            /* keys are (daggers, shown), else daggers */
    int side;             /* MAX keys per axis: total cells + 1 */
    int *slot;            /* key -> entry index, or -1 */
    int entries;          /* entries reached so far */
    int *entry_daggers;   /* per entry, its key */
    int *entry_shown;
    u128 *weights;        /* per entry, W */
    u128 *expected;       /* per entry, E per class (classes values each) */
    int capacity;         /* entries the arrays above hold */
    int failed;           /* out of memory while growing them */
} Search;

static u128 binomial[MAX_CELLS + 1][MAX_CELLS + 1]; /* C(size, n), filled when imported */

/* Room for one more entry; 0 when memory runs out. */
static int grow(Search *s)
{
    if (s->entries < s->capacity) {
        return 1;
    }
    int capacity = s->capacity ? 2 * s->capacity : 16;
    int *daggers = realloc(s->entry_daggers, sizeof(int) * capacity);
    if (daggers != NULL) {
        s->entry_daggers = daggers;
    }
    int *shown = realloc(s->entry_shown, sizeof(int) * capacity);
    if (shown != NULL) {
        s->entry_shown = shown;
    }
    u128 *weights = realloc(s->weights, sizeof(u128) * capacity);
    if (weights != NULL) {
        s->weights = weights;
    }
    u128 *expected = realloc(s->expected, sizeof(u128) * capacity * (s->classes ? s->classes : 1));
    if (expected != NULL) {
        s->expected = expected;
    }
    if (!daggers || !shown || !weights || !expected) {
        s->failed = 1;
        return 0;
    }
    s->capacity = capacity;
    return 1;
}

static void go(Search *s, int j, int daggers, u128 weight, int shown)
{
    if (j == s->classes) {
        int key = daggers * s->side + (s->keyed ? shown : 0);
        int e = s->slot[key];
        if (e < 0) {
            if (!grow(s)) {
                return;
            }
            e = s->slot[key] = s->entries++;
            s->entry_daggers[e] = daggers;
            s->entry_shown[e] = shown;
            s->weights[e] = 0;
            memset(s->expected + (size_t)e * s->classes, 0, sizeof(u128) * s->classes);
        }
        s->weights[e] += weight;
        u128 *per_class = s->expected + (size_t)e * s->classes;
        for (int i = 0; i < s->classes; i++) {
            if (s->counts[i]) {
                per_class[i] += weight * (u128)s->counts[i];
            }
        }
        return;
    }
    const int *owners = s->owners + s->owner_at[j];
    int bound = s->owner_len[j];
    int size = s->sizes[j];
    int low = 0, high = size;
    for (int k = 0; k < bound; k++) {
        int i = owners[k];
        if (s->need[i] < high) {
            high = s->need[i];
        }
        s->left[i] -= size;
        if (s->need[i] - s->left[i] > low) {
            low = s->need[i] - s->left[i];
        }
    }
    int into_free = s->in_free[j];
    for (int n = low; n <= high; n++) {
        for (int k = 0; k < bound; k++) {
            s->need[owners[k]] -= n;
        }
        s->counts[j] = n;
        go(s, j + 1, daggers + n, weight * binomial[size][n], into_free ? shown + n : shown);
        for (int k = 0; k < bound; k++) {
            s->need[owners[k]] += n;
        }
    }
    s->counts[j] = 0;
    for (int k = 0; k < bound; k++) {
        s->left[owners[k]] += size;
    }
}

static PyObject *from_u128(u128 value)
{
    unsigned long long low = (unsigned long long)value;
    unsigned long long high = (unsigned long long)(value >> 64);
    if (high == 0) {
        return PyLong_FromUnsignedLongLong(low);
    }
    PyObject *h = PyLong_FromUnsignedLongLong(high);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *l = PyLong_FromUnsignedLongLong(low);
    PyObject *out = NULL;
    if (h && shift && l) {
        PyObject *up = PyNumber_Lshift(h, shift);
        if (up) {
            out = PyNumber_Or(up, l);
            Py_DECREF(up);
        }
    }
    Py_XDECREF(h);
    Py_XDECREF(shift);
    Py_XDECREF(l);
    return out;
}

/* The Python search's table: {key: [W, [E per class]]}, keys in the order first reached. */
static PyObject *table_of(Search *s)
{
    PyObject *out = PyDict_New();
    if (out == NULL) {
        return NULL;
    }
    for (int e = 0; e < s->entries; e++) {
        PyObject *key = s->keyed ? Py_BuildValue("(ii)", s->entry_daggers[e], s->entry_shown[e])
                                 : PyLong_FromLong(s->entry_daggers[e]);
        PyObject *per_class = PyList_New(s->classes);
        PyObject *entry = NULL;
        if (key != NULL && per_class != NULL) {
            int i = 0;
            for (; i < s->classes; i++) {
                PyObject *value = from_u128(s->expected[(size_t)e * s->classes + i]);
                if (value == NULL) {
                    break;
                }
                PyList_SetItem(per_class, i, value); /* steals the reference */
            }
            if (i == s->classes) {
                entry = Py_BuildValue("[NO]", from_u128(s->weights[e]), per_class);
            }
        }
        if (entry == NULL || PyDict_SetItem(out, key, entry) < 0) {
            Py_XDECREF(key);
            Py_XDECREF(per_class);
            Py_XDECREF(entry);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(key);
        Py_DECREF(per_class);
        Py_DECREF(entry);
    }
    return out;
}

/* What enumerate_component holds while it runs; released by release(). */
typedef struct {
    Py_ssize_t constraints;
    PyObject **cons_cells;  /* per constraint, its cells (a sequence; new references) */
    int *need, *left;       /* per constraint: its daggers, its cells */
    int total;              /* (constraint, cell) pairs */
    int *pair_cell;         /* per pair, its cell's index (cells in order of first sight) */
    int *pair_con;          /* per pair, its constraint */
    PyObject *cell_index;   /* cell -> its index */
    PyObject *class_index;  /* constraint ids (a tuple) -> class index, in order of first sight */
    PyObject *classes;      /* per class (ids, [cells]), in order of first sight */
    int *owners;            /* per cell, its constraints (ascending), back to back */
    int *owner_first;       /* per cell, where its constraints start in `owners` */
    int *owner_count;       /* per cell, how many */
    int *class_cell;        /* per class, its first cell: its ids are that cell's owners */
} Input;

static void release(Input *in)
{
    if (in->cons_cells != NULL) {
        for (Py_ssize_t i = 0; i < in->constraints; i++) {
            Py_XDECREF(in->cons_cells[i]);
        }
    }
    free(in->cons_cells);
    free(in->need);
    free(in->left);
    free(in->pair_cell);
    free(in->pair_con);
    free(in->owners);
    free(in->owner_first);
    free(in->owner_count);
    free(in->class_cell);
    Py_XDECREF(in->cell_index);
    Py_XDECREF(in->class_index);
    Py_XDECREF(in->classes);
}

/* Reads `cons` ([(cells, k)]) into `in`: the constraints, and each cell's index. */
static int read_constraints(PyObject *cons, Input *in)
{
    Py_ssize_t n = PySequence_Size(cons);
    if (n < 0) {
        return -1;
    }
    in->constraints = n;
    in->cons_cells = calloc((size_t)n + 1, sizeof(PyObject *));
    in->need = calloc((size_t)n + 1, sizeof(int));
    in->left = calloc((size_t)n + 1, sizeof(int));
    in->cell_index = PyDict_New();
    if (!in->cons_cells || !in->need || !in->left || !in->cell_index) {
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        return -1;
    }
    int total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_GetItem(cons, i);
        if (item == NULL) {
            return -1;
        }
        PyObject *cells = PySequence_GetItem(item, 0);
        PyObject *k = PySequence_GetItem(item, 1);
        Py_DECREF(item);
        long value = k != NULL ? PyLong_AsLong(k) : -1;
        Py_XDECREF(k);
        Py_ssize_t size = cells != NULL ? PySequence_Size(cells) : -1;
        in->cons_cells[i] = cells;
        if (cells == NULL || size < 0 || (value == -1 && PyErr_Occurred())) {
            return -1;
        }
        if (value < -1000000 || value > 1000000 || size > 1000000 - total) {
            PyErr_SetString(PyExc_ValueError, "enumerate_component: a count out of range");
            return -1;
        }
        in->need[i] = (int)value;
        in->left[i] = (int)size;
        total += (int)size;
    }
    in->total = total;
    in->pair_cell = calloc((size_t)total + 1, sizeof(int));
    in->pair_con = calloc((size_t)total + 1, sizeof(int));
    if (!in->pair_cell || !in->pair_con) {
        PyErr_NoMemory();
        return -1;
    }
    int p = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t size = in->left[i];
        for (Py_ssize_t j = 0; j < size; j++) {
            PyObject *cell = PySequence_GetItem(in->cons_cells[i], j);
            if (cell == NULL) {
                return -1;
            }
            PyObject *index = PyDict_GetItemWithError(in->cell_index, cell); /* borrowed */
            long c;
            if (index == NULL) {
                if (PyErr_Occurred()) {
                    Py_DECREF(cell);
                    return -1;
                }
                c = (long)PyDict_Size(in->cell_index);
                PyObject *fresh = PyLong_FromLong(c);
                int failed = fresh == NULL || PyDict_SetItem(in->cell_index, cell, fresh) < 0;
                Py_XDECREF(fresh);
                if (failed) {
                    Py_DECREF(cell);
                    return -1;
                }
            } else {
                c = PyLong_AsLong(index);
            }
            Py_DECREF(cell);
            in->pair_cell[p] = (int)c;
            in->pair_con[p] = (int)i;
            p++;
        }
    }
    return 0;
}

/* The classes: cells under the same constraints, keyed by those constraints' ids in the
 * order of first sight (as the Python dicts by_cell and class_of give them). */
static int read_classes(Input *in)
{
    Py_ssize_t cells = PyDict_Size(in->cell_index);
    int *first = in->owner_first = calloc((size_t)cells + 1, sizeof(int));
    int *count = in->owner_count = calloc((size_t)cells + 1, sizeof(int));
    int *owners = in->owners = calloc((size_t)in->total + 1, sizeof(int));
    in->class_cell = calloc((size_t)cells + 1, sizeof(int));
    PyObject **cell_objects = calloc((size_t)cells + 1, sizeof(PyObject *)); /* borrowed */
    int status = -1;
    in->class_index = PyDict_New();
    in->classes = PyList_New(0);
    if (!first || !count || !owners || !in->class_cell || !cell_objects || !in->class_index
        || !in->classes) {
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        goto done;
    }
    for (int p = 0; p < in->total; p++) {
        count[in->pair_cell[p]]++;
    }
    for (Py_ssize_t c = 1; c < cells; c++) {
        first[c] = first[c - 1] + count[c - 1];
    }
    memset(count, 0, sizeof(int) * ((size_t)cells + 1));
    for (int p = 0; p < in->total; p++) { /* in constraint order: each cell's owners ascend */
        int c = in->pair_cell[p];
        owners[first[c] + count[c]++] = in->pair_con[p];
    }
    Py_ssize_t position = 0;
    PyObject *key, *value;
    while (PyDict_Next(in->cell_index, &position, &key, &value)) {
        cell_objects[PyLong_AsLong(value)] = key;
    }
    for (Py_ssize_t c = 0; c < cells; c++) {
        PyObject *ids = PyTuple_New(count[c]);
        if (ids == NULL) {
            goto done;
        }
        for (int k = 0; k < count[c]; k++) {
            PyObject *id = PyLong_FromLong(owners[first[c] + k]);
            if (id == NULL) {
                Py_DECREF(ids);
                goto done;
            }
            PyTuple_SetItem(ids, k, id);
        }
        PyObject *found = PyDict_GetItemWithError(in->class_index, ids); /* borrowed */
        PyObject *members;
        if (found == NULL) {
            if (PyErr_Occurred()) {
                Py_DECREF(ids);
                goto done;
            }
            in->class_cell[PyList_Size(in->classes)] = (int)c;
            PyObject *index = PyLong_FromSsize_t(PyList_Size(in->classes));
            members = PyList_New(0);
            PyObject *entry = members ? PyTuple_Pack(2, ids, members) : NULL;
            int failed = index == NULL || entry == NULL
                         || PyDict_SetItem(in->class_index, ids, index) < 0
                         || PyList_Append(in->classes, entry) < 0;
            Py_XDECREF(index);
            Py_XDECREF(entry);
            Py_XDECREF(members);
            if (failed) {
                Py_DECREF(ids);
                goto done;
            }
        }
        Py_ssize_t j = PyLong_AsSsize_t(PyDict_GetItem(in->class_index, ids));
        Py_DECREF(ids);
        members = PyTuple_GetItem(PyList_GetItem(in->classes, j), 1); /* borrowed */
        if (members == NULL || PyList_Append(members, cell_objects[c]) < 0) {
            goto done;
        }
    }
    status = 0;
done:
    free(cell_objects); /* the owners stay in `in`: the search order reads them */
    return status;
}

/* enumerate_component(cons, free) -> (classes, table) as components.enumerate_component
 * gives them, or None for a component of more than MAX_CELLS cells. */
static PyObject *enumerate_component(PyObject *self, PyObject *args)
{
    PyObject *cons, *free_object;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO", &cons, &free_object)) {
        return NULL;
    }
    long free_id = -1;
    if (free_object != Py_None) {
        free_id = PyLong_AsLong(free_object);
        if (free_id == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    Input in;
    memset(&in, 0, sizeof(in));
    Search search;
    memset(&search, 0, sizeof(search));
    Search *s = &search;
    int *ints = NULL;
    char *flags = NULL;
    PyObject *result = NULL, *ordered = NULL;
    if (read_constraints(cons, &in) < 0 || read_classes(&in) < 0) {
        goto done;
    }
    Py_ssize_t classes = PyList_Size(in.classes);
    Py_ssize_t n_cons = in.constraints;
    /* per class: ids count, size, touching, placed, order, owner offset and length, counts;
     * per constraint: touched; then the bounded owners, back to back */
    ints = calloc((size_t)8 * classes + n_cons + in.total + 1, sizeof(int));
    flags = calloc((size_t)classes + 1, 1);
    ordered = PyList_New(classes);
    if (!ints || !flags || !ordered) {
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        goto done;
    }
    int *id_count = ints, *size = id_count + classes, *touching = size + classes;
    int *placed = touching + classes, *order = placed + classes, *owner_at = order + classes;
    int *owner_len = owner_at + classes, *counts = owner_len + classes;
    int *touched = counts + classes, *owners = touched + n_cons;
    int cells = 0;
    for (Py_ssize_t j = 0; j < classes; j++) {
        PyObject *entry = PyList_GetItem(in.classes, j);
        id_count[j] = in.owner_count[in.class_cell[j]];
        size[j] = (int)PyList_Size(PyTuple_GetItem(entry, 1));
        cells += size[j];
    }
    if (cells > MAX_CELLS) {
        result = Py_None; /* too large for 128 bits: the caller searches in Python */
        Py_INCREF(result);
        goto done;
    }
    /* the order: the class touching the most constraints already touched, then the one under
     * the most constraints, then the first (the Python heap's order) */
    for (Py_ssize_t step = 0; step < classes; step++) {
        int best = -1;
        for (int j = 0; j < classes; j++) {
            if (!placed[j] && (best < 0 || touching[j] > touching[best]
                               || (touching[j] == touching[best]
                                   && id_count[j] > id_count[best]))) {
                best = j;
            }
        }
        placed[best] = 1;
        order[step] = best;
        const int *ids = in.owners + in.owner_first[in.class_cell[best]];
        for (int k = 0; k < id_count[best]; k++) {
            int i = ids[k];
            if (touched[i]) {
                continue;
            }
            touched[i] = 1;
            for (int j = 0; j < classes; j++) { /* the classes under constraint i */
                if (placed[j]) {
                    continue;
                }
                const int *other = in.owners + in.owner_first[in.class_cell[j]];
                for (int m = 0; m < id_count[j]; m++) {
                    if (other[m] == i) {
                        touching[j]++;
                        break;
                    }
                }
            }
        }
    }
    int at = 0;
    int *ordered_size = touching; /* no longer needed: the sizes in search order */
    for (Py_ssize_t step = 0; step < classes; step++) {
        int j = order[step];
        PyObject *entry = PyList_GetItem(in.classes, j);
        Py_INCREF(entry);
        PyList_SetItem(ordered, step, entry);
        ordered_size[step] = size[j];
        const int *ids = in.owners + in.owner_first[in.class_cell[j]];
        owner_at[step] = at;
        flags[step] = 0;
        for (int k = 0; k < id_count[j]; k++) {
            if (ids[k] == free_id) {
                flags[step] = 1;
            } else {
                owners[at++] = ids[k];
            }
        }
        owner_len[step] = at - owner_at[step];
    }
    for (Py_ssize_t i = 0; i < n_cons; i++) {
        if (i != free_id && (in.need[i] < 0 || in.need[i] > in.left[i])) {
            result = Py_BuildValue("(N{})", ordered); /* no placement: an empty table */
            ordered = NULL;
            goto done;
        }
    }
    s->classes = (int)classes;
    s->sizes = ordered_size;
    s->owner_at = owner_at;
    s->owner_len = owner_len;
    s->owners = owners;
    s->in_free = flags;
    s->need = in.need;
    s->left = in.left;
    s->counts = counts;
    s->keyed = free_object != Py_None;
    s->side = cells + 1;
    size_t keys = (size_t)s->side * s->side;
    s->slot = malloc(keys * sizeof(int)); /* every (daggers, shown) a leaf may reach */
    if (s->slot == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t k = 0; k < keys; k++) {
        s->slot[k] = -1;
    }
    go(s, 0, 0, 1, 0);
    if (s->failed) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *table = table_of(s);
    if (table != NULL) {
        result = Py_BuildValue("(NN)", ordered, table);
        ordered = NULL;
    }
done:
    free(s->slot);
    free(s->entry_daggers);
    free(s->entry_shown);
    free(s->weights);
    free(s->expected);
    free(ints);
    free(flags);
    Py_XDECREF(ordered);
    release(&in);
    return result;
}

static PyMethodDef methods[] = {
    {"enumerate_component", enumerate_component, METH_VARARGS,
     "enumerate_component(cons, free) -> (classes, table), as components.enumerate_component "
     "gives them, or None for a component of more than 100 cells."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_enumerate",
    "The compiled kernel of prob's odds: a component's placements, counted by class.",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__enumerate(void)
{
    for (int size = 0; size <= MAX_CELLS; size++) {
        binomial[size][0] = 1;
        for (int n = 1; n <= size; n++) {
            binomial[size][n] = binomial[size - 1][n - 1] + (n < size ? binomial[size - 1][n] : 0);
        }
    }
    return PyModule_Create(&module);
}
