/* The compiled kernel of the threat search (engine/threats.py): VCF and bounded VCT.
 *
 * A line-for-line port of ThreatSearch's _deepen, _vcf, _vct, _vct_reply and of the LineState
 * questions they ask (win_cells, partners, four_moves, double_moves, gain, fork_stops); and, for
 * the main search (pvs.py), LineState.gain asked of many cells in one call. The pure
 * Python code stays the reference: this kernel must return the same line and count the same
 * nodes, call after call, with the same failure and proven tables (tests/engine/
 * test_threat_kernel.py compares them on thousands of positions). Nothing here decides anything
 * of its own: every move order, table rule and budget rule is the Python one.
 *
 * Boards up to 20x20 (400 cells): a bitboard is an array of 64-bit words. C99 and the CPython
 * C API of Python 3.11 on, nothing else. Unlike LineState, the kernel keeps its position between
 * calls and syncs it to the one asked about (see sync_position).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#if PY_VERSION_HEX < 0x030C0000
/* The member types' names from Python 3.12 on (structmember.h's T_* before). */
#define Py_T_LONGLONG T_LONGLONG
#define Py_T_INT T_INT
#define Py_READONLY READONLY
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXW 7                /* 64-bit words of a bitboard: 7 * 64 >= 400 cells */
#define MAXCELLS 400
#define NEVER (1 << 30)       /* threats.py's _NEVER */
#define TABLE_LIMIT 400000    /* threats.py's _TABLE_LIMIT (the wrapper sets it each search) */

/* What a search function returns when it found no line (a length >= 0 means a line). */
#define NONE (-1)
#define OUT_OF_BUDGET (-2)    /* threats.py's OutOfBudget */
#define FAILED (-3)           /* a Python exception is set (poll raised, or no memory) */

enum { FOUR = 0, THREE = 1, TWO = 2, NOCAT = 3 };

typedef struct { uint64_t w[MAXW]; } BB;

#if defined(__GNUC__) || defined(__clang__)
#define POPCOUNT(x) __builtin_popcountll(x)
#define CTZ(x) __builtin_ctzll(x)
#else
static int POPCOUNT(uint64_t x) { int n = 0; while (x) { x &= x - 1; n++; } return n; }
static int CTZ(uint64_t x) { int n = 0; while (!(x & 1)) { x >>= 1; n++; } return n; }
#endif

static inline void bb_clear(BB *b) { memset(b, 0, sizeof *b); }
static inline void bb_set(BB *b, int c) { b->w[c >> 6] |= (uint64_t)1 << (c & 63); }
static inline void bb_reset(BB *b, int c) { b->w[c >> 6] &= ~((uint64_t)1 << (c & 63)); }
static inline int bb_has(const BB *b, int c) { return (int)(b->w[c >> 6] >> (c & 63) & 1); }

static inline int bb_any(const BB *b) {
    for (int i = 0; i < MAXW; i++) if (b->w[i]) return 1;
    return 0;
}

/* At least two cells set: the `mask & (mask - 1)` test of the Python code. */
static inline int bb_many(const BB *b) {
    int seen = 0;
    for (int i = 0; i < MAXW; i++) {
        if (b->w[i]) {
            if (seen || (b->w[i] & (b->w[i] - 1))) return 1;
            seen = 1;
        }
    }
    return 0;
}

static inline int bb_count(const BB *b) {
    int n = 0;
    for (int i = 0; i < MAXW; i++) n += POPCOUNT(b->w[i]);
    return n;
}

/* The lowest set cell, or -1 for an empty mask. */
static inline int bb_lowest(const BB *b) {
    for (int i = 0; i < MAXW; i++) if (b->w[i]) return i * 64 + CTZ(b->w[i]);
    return -1;
}

/* ---- hash tables: (key words) -> value, open addressing over a dense entry array ---------- */

typedef struct {
    int32_t *slots;      /* entry index or -1 */
    size_t cap;          /* slots, a power of two */
    uint64_t *hash;      /* per entry */
    uint64_t *keys;      /* per entry, kw words */
    int32_t *value;      /* per entry */
    int32_t *length;     /* per entry (the proven table: the line's length) */
    size_t n, ecap;
    int kw;
} Table;

static uint64_t key_hash(const uint64_t *key, int kw) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < kw; i++) {
        h ^= key[i];
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    h *= 0x94D049BB133111EBULL;
    return h ^ (h >> 29);
}

static int table_init(Table *t, int kw) {
    memset(t, 0, sizeof *t);
    t->kw = kw;
    t->cap = 1024;
    t->slots = malloc(t->cap * sizeof *t->slots);
    if (!t->slots) return -1;
    memset(t->slots, 0xff, t->cap * sizeof *t->slots);
    return 0;
}

static void table_free(Table *t) {
    free(t->slots); free(t->hash); free(t->keys); free(t->value); free(t->length);
    memset(t, 0, sizeof *t);
}

static void table_clear(Table *t) {
    t->n = 0;
    memset(t->slots, 0xff, t->cap * sizeof *t->slots);
}

static long table_find(const Table *t, const uint64_t *key, uint64_t h) {
    size_t mask = t->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        int32_t e = t->slots[i];
        if (e < 0) return -1;
        if (t->hash[e] == h && !memcmp(t->keys + (size_t)e * t->kw, key, t->kw * sizeof *key))
            return e;
    }
}

static int table_grow(Table *t) {
    size_t cap = t->cap * 2;
    int32_t *slots = malloc(cap * sizeof *slots);
    if (!slots) return -1;
    memset(slots, 0xff, cap * sizeof *slots);
    for (size_t e = 0; e < t->n; e++) {
        size_t i = t->hash[e] & (cap - 1);
        while (slots[i] >= 0) i = (i + 1) & (cap - 1);
        slots[i] = (int32_t)e;
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return 0;
}

/* Set key -> (value, length), adding the key if new (a dict assignment). -1: no memory. */
static int table_put(Table *t, const uint64_t *key, int32_t value, int32_t length) {
    uint64_t h = key_hash(key, t->kw);
    long found = table_find(t, key, h);
    if (found >= 0) {
        t->value[found] = value;
        t->length[found] = length;
        return 0;
    }
    if (t->n == t->ecap) {
        size_t ecap = t->ecap ? t->ecap * 2 : 1024;
        uint64_t *hash = realloc(t->hash, ecap * sizeof *hash);
        if (!hash) return -1;
        t->hash = hash;
        uint64_t *keys = realloc(t->keys, ecap * t->kw * sizeof *keys);
        if (!keys) return -1;
        t->keys = keys;
        int32_t *value_ = realloc(t->value, ecap * sizeof *value_);
        if (!value_) return -1;
        t->value = value_;
        int32_t *length_ = realloc(t->length, ecap * sizeof *length_);
        if (!length_) return -1;
        t->length = length_;
        t->ecap = ecap;
    }
    if ((t->n + 1) * 2 > t->cap && table_grow(t) < 0) return -1;
    size_t e = t->n++;
    t->hash[e] = h;
    memcpy(t->keys + e * t->kw, key, t->kw * sizeof *key);
    t->value[e] = value;
    t->length[e] = length;
    size_t mask = t->cap - 1;
    size_t i = h & mask;
    while (t->slots[i] >= 0) i = (i + 1) & mask;
    t->slots[i] = (int32_t)e;
    return 0;
}

/* ---- the kernel object ------------------------------------------------------------------- */

/* A LineState's `partners` result: for each four-making cell, the winning cells it makes. */
typedef struct {
    int n;
    int16_t cell[MAXCELLS];
    BB wins[MAXCELLS];
    int16_t slot[MAXCELLS];   /* cell -> entry, or -1 */
} Partners;

typedef struct {
    PyObject_HEAD
    int size, k, cells, words, lines;
    int16_t *line_cells;          /* lines * k */
    int32_t *cell_start;          /* cells + 1: cell c's lines are cell_line[start[c]:start[c+1]] */
    int32_t *cell_line;
    long long *gain;              /* k entries */
    long long *weight;            /* k + 1 entries */
    /* the position */
    BB bits[2];
    uint8_t *count[2];
    int8_t *cat[2];               /* the set each line is in for each side (FOUR..NOCAT) */
    int32_t *items[3][2];         /* the sets fours/threes/twos of each side, as arrays */
    int32_t *pos[3][2];
    int set_n[3][2];
    /* the search */
    long long nodes, limit, cut, table_limit;
    PyObject *poll;               /* borrowed for the length of one search */
    int32_t refutations[MAXCELLS];
    int busy;                     /* a search is running (poll may run other Python code) */
    int depth;                    /* stones played since the search started */
    int16_t *played;              /* those stones, cell << 1 | side, the last one last */
    int row;                      /* length of one scratch line */
    int16_t *scratch;             /* (cells + 2) lines: _vct_reply's candidates, by depth */
    int16_t *top;                 /* the line the search returns */
    int16_t *moves;               /* a stack of every active frame's move list */
    size_t moves_top;
    long long *keys_gain;         /* sort keys, one per cell */
    Partners partners;
    Table failed, proven;
    int16_t *arena;               /* the proven lines */
    size_t arena_n, arena_cap;
} Kernel;

static inline BB occupied(const Kernel *K) {
    BB o;
    for (int i = 0; i < MAXW; i++) o.w[i] = K->bits[0].w[i] | K->bits[1].w[i];
    return o;
}

static inline void set_move(Kernel *K, int side, int line, int to) {
    int from = K->cat[side][line];
    if (from == to) return;
    if (from != NOCAT) {
        int32_t *items = K->items[from][side];
        int32_t *pos = K->pos[from][side];
        int at = pos[line];
        int last = items[--K->set_n[from][side]];
        items[at] = last;
        pos[last] = at;
    }
    if (to != NOCAT) {
        K->pos[to][side][line] = K->set_n[to][side];
        K->items[to][side][K->set_n[to][side]++] = line;
    }
    K->cat[side][line] = (int8_t)to;
}

/* The set a line belongs to for `side`: LineState's fours/threes/twos (twos only for k > 3). */
static inline int classify(const Kernel *K, int side, int line) {
    if (K->count[1 - side][line]) return NOCAT;
    int n = K->count[side][line], k = K->k;
    if (n == 0) return NOCAT;
    if (n == k - 1) return FOUR;
    if (n == k - 2) return THREE;
    if (n == k - 3) return TWO;
    return NOCAT;
}

/* Add (delta 1) or take away (delta -1) a stone of `side` on `cell`: the counts and the sets. */
static void put(Kernel *K, int cell, int side, int delta) {
    for (int32_t i = K->cell_start[cell]; i < K->cell_start[cell + 1]; i++) {
        int line = K->cell_line[i];
        K->count[side][line] = (uint8_t)(K->count[side][line] + delta);
        set_move(K, 0, line, classify(K, 0, line));
        set_move(K, 1, line, classify(K, 1, line));
    }
    if (delta > 0) bb_set(&K->bits[side], cell); else bb_reset(&K->bits[side], cell);
}

/* Make the kernel's position x, o: only the cells that differ from the last search's position
 * are touched (the main search asks about positions a few moves apart). */
static void sync_position(Kernel *K, const BB *x, const BB *o) {
    const BB *want[2] = {x, o};
    for (int pass = 0; pass < 2; pass++) {      /* stones taken away first, then stones added */
        for (int side = 0; side < 2; side++) {
            for (int w = 0; w < K->words; w++) {
                uint64_t have = K->bits[side].w[w], need = want[side]->w[w];
                uint64_t diff = pass == 0 ? have & ~need : need & ~have;
                while (diff) {
                    put(K, w * 64 + CTZ(diff), side, pass == 0 ? -1 : 1);
                    diff &= diff - 1;
                }
            }
        }
    }
}

static void play(Kernel *K, int cell, int side) {
    put(K, cell, side, 1);
    K->played[K->depth++] = (int16_t)(cell << 1 | side);
}

static void undo(Kernel *K, int cell, int side) {
    put(K, cell, side, -1);
    K->depth--;
}

/* The empty cells of the lines in one set of `side` (win_cells, four_moves, two_cells). */
static BB set_empties(const Kernel *K, int which, int side) {
    BB out, occ = occupied(K);
    bb_clear(&out);
    int k = K->k;
    for (int j = 0; j < K->set_n[which][side]; j++) {
        const int16_t *cells = K->line_cells + (size_t)K->items[which][side][j] * k;
        for (int i = 0; i < k; i++)
            if (!bb_has(&occ, cells[i])) bb_set(&out, cells[i]);
    }
    return out;
}

static inline BB win_cells(const Kernel *K, int side) { return set_empties(K, FOUR, side); }

static void partners_reset(Partners *p) {
    for (int i = 0; i < p->n; i++) p->slot[p->cell[i]] = -1;
    p->n = 0;
}

static inline void partners_add(Partners *p, int cell, int other) {
    int at = p->slot[cell];
    if (at < 0) {
        at = p->n++;
        p->slot[cell] = (int16_t)at;
        p->cell[at] = (int16_t)cell;
        bb_clear(&p->wins[at]);
    }
    bb_set(&p->wins[at], other);
}

/* LineState.partners: every line of k-2 stones pairs its two empty cells. */
static void partners_of(const Kernel *K, int side, Partners *p) {
    partners_reset(p);
    BB occ = occupied(K);
    int k = K->k;
    for (int j = 0; j < K->set_n[THREE][side]; j++) {
        const int16_t *cells = K->line_cells + (size_t)K->items[THREE][side][j] * k;
        int a = -1, b = -1;
        for (int i = 0; i < k; i++) {
            if (!bb_has(&occ, cells[i])) {
                if (a < 0) a = cells[i]; else b = cells[i];
            }
        }
        partners_add(p, a, b);
        partners_add(p, b, a);
    }
}

/* LineState.gain: how much H1 seen from `side` rises if `side` plays `cell`. */
static long long gain_of(const Kernel *K, int cell, int side) {
    const uint8_t *mine = K->count[side], *theirs = K->count[1 - side];
    long long delta = 0;
    for (int32_t i = K->cell_start[cell]; i < K->cell_start[cell + 1]; i++) {
        int line = K->cell_line[i];
        if (theirs[line] == 0) delta += K->gain[mine[line]];
        else if (mine[line] == 0) delta += K->weight[theirs[line]];
    }
    return delta;
}

/* Sort moves[0:n] by (-gain, cell): _by_strength's order (and the threes'). */
static void sort_by_strength(Kernel *K, int16_t *moves, int n, int side) {
    long long *key = K->keys_gain;
    for (int i = 0; i < n; i++) key[i] = gain_of(K, moves[i], side);
    for (int i = 1; i < n; i++) {
        int16_t m = moves[i];
        long long g = key[i];
        int j = i - 1;
        while (j >= 0 && (key[j] < g || (key[j] == g && moves[j] > m))) {
            moves[j + 1] = moves[j];
            key[j + 1] = key[j];
            j--;
        }
        moves[j + 1] = m;
        key[j + 1] = g;
    }
}

/* first_double: the lowest cell whose move makes two or more winning cells, or -1. */
static int first_double(const Partners *p) {
    int best = -1;
    for (int i = 0; i < p->n; i++)
        if (bb_many(&p->wins[i]) && (best < 0 || p->cell[i] < best)) best = p->cell[i];
    return best;
}

/* fork_stops | four_moves (`defences`); returns 0 when the opponent has no double. */
static int defences(const Kernel *K, int side, Partners *p, BB *out) {
    partners_of(K, 1 - side, p);
    BB stop;
    memset(&stop, 0xff, sizeof stop);
    int found = 0;
    for (int i = 0; i < p->n; i++) {
        const BB *wins = &p->wins[i];
        if (!bb_many(wins)) continue;
        found = 1;
        BB here;
        if (bb_count(wins) == 2) here = *wins; else bb_clear(&here);
        bb_set(&here, p->cell[i]);
        for (int w = 0; w < MAXW; w++) stop.w[w] &= here.w[w];
    }
    if (!found) return 0;
    BB occ = occupied(K), fours = set_empties(K, THREE, side);
    for (int w = 0; w < K->words; w++)
        out->w[w] = (stop.w[w] & ~occ.w[w]) | fours.w[w];
    for (int w = K->words; w < MAXW; w++) out->w[w] = 0;
    /* cells past the board: the last word's high bits */
    if (K->cells & 63) out->w[K->words - 1] &= ((uint64_t)1 << (K->cells & 63)) - 1;
    return 1;
}

/* LineState.double_moves(side, cells), with `old` = partners(side) already computed. */
static BB double_moves(Kernel *K, int side, const BB *cells, const Partners *old) {
    BB found;
    bb_clear(&found);
    if (!K->set_n[TWO][side]) return found;
    BB candidates = set_empties(K, TWO, side);
    BB occ = occupied(K);
    int k = K->k;
    /* Targets of the new pairs one move makes: at most two per line through a cell. */
    int16_t target[160];
    BB wins[160];
    for (int w = 0; w < MAXW; w++) candidates.w[w] &= cells->w[w];
    for (int w = 0; w < MAXW; w++) {
        uint64_t word = candidates.w[w];
        while (word) {
            int cell = w * 64 + CTZ(word);
            word &= word - 1;
            int n = 0;
            for (int32_t i = K->cell_start[cell]; i < K->cell_start[cell + 1]; i++) {
                int line = K->cell_line[i];
                if (K->cat[side][line] != TWO) continue;
                const int16_t *lc = K->line_cells + (size_t)line * k;
                int ab[2], m = 0;
                for (int j = 0; j < k; j++) {
                    int c = lc[j];
                    if (c != cell && !bb_has(&occ, c)) ab[m++] = c;
                }
                for (int s = 0; s < 2; s++) {
                    int t = ab[s], partner = ab[1 - s], at = -1;
                    for (int q = 0; q < n; q++) if (target[q] == t) { at = q; break; }
                    if (at < 0) {
                        at = n++;
                        target[at] = (int16_t)t;
                        bb_clear(&wins[at]);
                    }
                    bb_set(&wins[at], partner);
                }
            }
            for (int q = 0; q < n; q++) {
                BB all = wins[q];
                int at = old->slot[target[q]];
                if (at >= 0)
                    for (int x = 0; x < MAXW; x++) all.w[x] |= old->wins[at].w[x];
                if (bb_many(&all)) {
                    bb_set(&found, cell);
                    break;
                }
            }
        }
    }
    return found;
}

/* state.key(side), with the kind appended for the failure table. */
static void make_key(const Kernel *K, int side, int kind, uint64_t *key) {
    int W = K->words;
    memcpy(key, K->bits[side].w, W * sizeof *key);
    memcpy(key + W, K->bits[1 - side].w, W * sizeof *key);
    if (kind >= 0) key[2 * W] = (uint64_t)kind;
}

/* _count: a node; past the limit the search is out of budget; poll every 64 nodes. */
static int count_node(Kernel *K) {
    K->nodes++;
    if (K->nodes > K->limit) return OUT_OF_BUDGET;
    if (!(K->nodes & 63)) {
        if (K->poll != Py_None) {
            PyObject *r = PyObject_CallNoArgs(K->poll);
            if (!r) return FAILED;
            Py_DECREF(r);
        }
        if (!(K->nodes & 1023)) {
            /* Let the app's other threads run now and then (the GIL is held otherwise). */
            Py_BEGIN_ALLOW_THREADS
            Py_END_ALLOW_THREADS
        }
    }
    return 0;
}

static int known_to_fail(Kernel *K, int kind, int side, int left) {
    uint64_t key[2 * MAXW + 1];
    make_key(K, side, kind, key);
    long e = table_find(&K->failed, key, key_hash(key, K->failed.kw));
    long known = e < 0 ? -1 : K->failed.value[e];
    if (known < left) return 0;
    if (known != NEVER) K->cut++;
    return 1;
}

static int record_failure(Kernel *K, int kind, int side, int left, long long cut_before) {
    uint64_t key[2 * MAXW + 1];
    make_key(K, side, kind, key);
    if (table_put(&K->failed, key, K->cut != cut_before ? left : NEVER, 0) < 0) {
        PyErr_NoMemory();
        return FAILED;
    }
    return NONE;
}

/* Push a frame's move list; the caller pops it with moves_top = mark. */
static inline int16_t *push_moves(Kernel *K, int n) {
    int16_t *at = K->moves + K->moves_top;
    K->moves_top += n;
    return at;
}

static int vcf(Kernel *K, int side, int left, int16_t *out) {
    int status = count_node(K);
    if (status) return status;
    BB wins = win_cells(K, side);
    if (bb_any(&wins)) {
        out[0] = (int16_t)bb_lowest(&wins);
        return 1;
    }
    int other = 1 - side;
    BB threat = win_cells(K, other);
    if (bb_many(&threat)) return NONE;
    Partners *p = &K->partners;
    partners_of(K, side, p);
    size_t mark = K->moves_top;
    int16_t *moves;
    int n;
    if (bb_any(&threat)) {
        int cell = bb_lowest(&threat);
        if (p->slot[cell] < 0) return NONE;
        moves = push_moves(K, 1);
        moves[0] = (int16_t)cell;
        n = 1;
    } else {
        n = p->n;
        moves = push_moves(K, n);
        for (int i = 0; i < n; i++) moves[i] = p->cell[i];
        sort_by_strength(K, moves, n, side);
    }
    int result = NONE;
    if (!n) goto done;
    if (left <= 0) {
        K->cut++;
        goto done;
    }
    if (known_to_fail(K, 0, side, left)) goto done;
    long long cut = K->cut;
    for (int i = 0; i < n; i++) {
        int move = moves[i];
        play(K, move, side);
        BB made = win_cells(K, side);
        int block = bb_lowest(&made);
        if (bb_many(&made)) {
            bb_reset(&made, block);
            out[0] = (int16_t)move;
            out[1] = (int16_t)block;
            out[2] = (int16_t)bb_lowest(&made);
            result = 3;
        } else {
            play(K, block, other);
            int rest = vcf(K, side, left - 1, out + 2);
            undo(K, block, other);
            if (rest >= 0) {
                out[0] = (int16_t)move;
                out[1] = (int16_t)block;
                result = rest + 2;
            } else if (rest != NONE) {
                undo(K, move, side);
                result = rest;
                goto done;
            }
        }
        undo(K, move, side);
        if (result >= 0) goto done;
    }
    result = record_failure(K, 0, side, left, cut);
done:
    K->moves_top = mark;
    return result;
}

static int vct(Kernel *K, int side, int left, int16_t *out);

/* _double_line: the 4-ply loss after `side` plays `move`, which stops no double. */
static int double_line(Kernel *K, int side, int move, int16_t *out) {
    Partners *p = &K->partners;
    play(K, move, side);
    partners_of(K, 1 - side, p);
    undo(K, move, side);
    int best = -1;
    BB best_rest;
    for (int i = 0; i < p->n; i++) {
        int cell = p->cell[i];
        if (cell == move || !bb_many(&p->wins[i])) continue;
        BB remaining = p->wins[i];
        bb_reset(&remaining, move);
        if (bb_many(&remaining) && (best < 0 || cell < best)) {
            best = cell;
            best_rest = remaining;
        }
    }
    if (best < 0) {
        PyErr_SetString(PyExc_AssertionError,
                        "rule 5 promised a double that the move leaves open");
        return FAILED;
    }
    int block = bb_lowest(&best_rest);
    bb_reset(&best_rest, block);
    out[0] = (int16_t)move;
    out[1] = (int16_t)best;
    out[2] = (int16_t)block;
    out[3] = (int16_t)bb_lowest(&best_rest);
    return 4;
}

static int vct_reply(Kernel *K, int side, int left, int16_t *out) {
    int status = count_node(K);
    if (status) return status;
    int other = 1 - side;
    BB theirs = win_cells(K, other);
    if (bb_any(&theirs)) return NONE;
    BB wins = win_cells(K, side);
    if (bb_many(&wins)) {
        int block = bb_lowest(&wins);
        bb_reset(&wins, block);
        out[0] = (int16_t)block;
        out[1] = (int16_t)bb_lowest(&wins);
        return 2;
    }
    BB replies, lost_in_four;
    bb_clear(&lost_in_four);
    if (bb_any(&wins)) {
        replies = wins;
    } else {
        if (!defences(K, other, &K->partners, &replies)) return NONE;
        BB occ = occupied(K);
        for (int w = 0; w < K->words; w++)
            lost_in_four.w[w] = ~occ.w[w] & ~replies.w[w];
        if (K->cells & 63)
            lost_in_four.w[K->words - 1] &= ((uint64_t)1 << (K->cells & 63)) - 1;
    }
    int n = bb_count(&replies);
    size_t mark = K->moves_top;
    int16_t *order = push_moves(K, n);
    int m = 0;
    for (int w = 0; w < MAXW; w++) {
        uint64_t word = replies.w[w];
        while (word) {
            order[m++] = (int16_t)(w * 64 + CTZ(word));
            word &= word - 1;
        }
    }
    if (n > 1) {
        /* A stable sort, most refutations first (Python's list.sort). */
        const int32_t *refuted = K->refutations;
        for (int i = 1; i < n; i++) {
            int16_t c = order[i];
            int j = i - 1;
            while (j >= 0 && refuted[order[j]] < refuted[c]) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = c;
        }
    }
    int16_t *candidate = K->scratch + (size_t)K->depth * K->row;
    int longest = NONE;
    int result;
    for (int i = 0; i < n; i++) {
        int reply = order[i];
        play(K, reply, other);
        int rest = vct(K, side, left, candidate + 1);
        undo(K, reply, other);
        if (rest < 0) {
            if (rest == NONE) K->refutations[reply]++;
            result = rest;
            goto done;
        }
        if (longest < 0 || rest + 1 > longest) {
            candidate[0] = (int16_t)reply;
            longest = rest + 1;
            memcpy(out, candidate, longest * sizeof *out);
        }
    }
    if (bb_any(&lost_in_four) && (longest < 0 || longest < 4)) {
        result = double_line(K, other, bb_lowest(&lost_in_four), out);
        goto done;
    }
    result = longest;
done:
    K->moves_top = mark;
    return result;
}

static int vct(Kernel *K, int side, int left, int16_t *out) {
    int status = count_node(K);
    if (status) return status;
    BB wins = win_cells(K, side);
    if (bb_any(&wins)) {
        out[0] = (int16_t)bb_lowest(&wins);
        return 1;
    }
    int other = 1 - side;
    BB threat = win_cells(K, other);
    if (bb_many(&threat)) return NONE;
    if (bb_any(&threat)) {
        int cell = bb_lowest(&threat);
        play(K, cell, side);
        int rest = vct_reply(K, side, left, out + 1);
        undo(K, cell, side);
        if (rest < 0) return rest;
        out[0] = (int16_t)cell;
        return rest + 1;
    }
    Partners *p = &K->partners;
    partners_of(K, side, p);
    int dbl = first_double(p);
    if (dbl >= 0) {
        BB made = p->wins[p->slot[dbl]];
        int block = bb_lowest(&made);
        bb_reset(&made, block);
        out[0] = (int16_t)dbl;
        out[1] = (int16_t)block;
        out[2] = (int16_t)bb_lowest(&made);
        return 3;
    }
    uint64_t key[2 * MAXW];
    make_key(K, side, -1, key);
    long e = table_find(&K->proven, key, key_hash(key, K->proven.kw));
    if (e >= 0) {
        int len = K->proven.length[e];
        memcpy(out, K->arena + K->proven.value[e], len * sizeof *out);
        return len;
    }
    if (left <= 0) {
        K->cut++;
        return NONE;
    }
    if (known_to_fail(K, 1, side, left)) return NONE;
    long long cut = K->cut;
    /* _threat_moves: fours strongest first, then the moves that make a double next. */
    size_t mark = K->moves_top;
    int nf = p->n;
    int16_t *moves = push_moves(K, nf);
    BB rest_cells = occupied(K);
    for (int w = 0; w < MAXW; w++) rest_cells.w[w] = ~rest_cells.w[w];
    for (int i = 0; i < nf; i++) {
        moves[i] = p->cell[i];
        bb_reset(&rest_cells, p->cell[i]);
    }
    sort_by_strength(K, moves, nf, side);
    BB threes = double_moves(K, side, &rest_cells, p);
    int nt = bb_count(&threes);
    int16_t *three_moves = push_moves(K, nt);
    int t = 0;
    for (int w = 0; w < MAXW; w++) {
        uint64_t word = threes.w[w];
        while (word) {
            three_moves[t++] = (int16_t)(w * 64 + CTZ(word));
            word &= word - 1;
        }
    }
    sort_by_strength(K, three_moves, nt, side);
    int result = NONE;
    for (int i = 0; i < nf + nt; i++) {
        int move = moves[i];
        play(K, move, side);
        int rest = vct_reply(K, side, left - 1, out + 1);
        undo(K, move, side);
        if (rest >= 0) {
            out[0] = (int16_t)move;
            result = rest + 1;
            if (K->arena_n + result > K->arena_cap) {
                size_t cap = K->arena_cap ? K->arena_cap * 2 : 4096;
                while (cap < K->arena_n + result) cap *= 2;
                int16_t *arena = realloc(K->arena, cap * sizeof *arena);
                if (!arena) {
                    PyErr_NoMemory();
                    result = FAILED;
                    goto done;
                }
                K->arena = arena;
                K->arena_cap = cap;
            }
            memcpy(K->arena + K->arena_n, out, result * sizeof *out);
            if (table_put(&K->proven, key, (int32_t)K->arena_n, result) < 0) {
                PyErr_NoMemory();
                result = FAILED;
                goto done;
            }
            K->arena_n += result;
            goto done;
        }
        if (rest != NONE) {
            result = rest;
            goto done;
        }
    }
    result = record_failure(K, 1, side, left, cut);
done:
    K->moves_top = mark;
    return result;
}

/* ---- Python glue ------------------------------------------------------------------------- */

static void Kernel_dealloc(Kernel *K) {
    free(K->line_cells); free(K->cell_start); free(K->cell_line);
    free(K->gain); free(K->weight);
    for (int s = 0; s < 2; s++) {
        free(K->count[s]); free(K->cat[s]);
        for (int c = 0; c < 3; c++) { free(K->items[c][s]); free(K->pos[c][s]); }
    }
    free(K->scratch); free(K->top); free(K->moves); free(K->keys_gain); free(K->arena);
    free(K->played);
    table_free(&K->failed);
    table_free(&K->proven);
    Py_TYPE(K)->tp_free((PyObject *)K);
}

static long long *int_table(PyObject *seq, Py_ssize_t want, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != want) {
        PyErr_Format(PyExc_ValueError, "%s: %zd values expected", what, want);
        Py_DECREF(fast);
        return NULL;
    }
    long long *out = malloc((want ? want : 1) * sizeof *out);
    if (!out) { Py_DECREF(fast); PyErr_NoMemory(); return NULL; }
    for (Py_ssize_t i = 0; i < want; i++) {
        out[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1 && PyErr_Occurred()) { free(out); Py_DECREF(fast); return NULL; }
    }
    Py_DECREF(fast);
    return out;
}

static int Kernel_init(Kernel *K, PyObject *args, PyObject *kwds) {
    static char *names[] = {"size", "k", "lines", "gain", "weight", NULL};
    int size, k;
    PyObject *lines, *gain, *weight;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOOO", names, &size, &k, &lines, &gain,
                                     &weight))
        return -1;
    if (K->line_cells) {
        PyErr_SetString(PyExc_RuntimeError, "a Kernel is set up once");
        return -1;
    }
    if (size < 3 || size > 20 || k < 3 || k > size) {
        PyErr_SetString(PyExc_ValueError, "boards from 3x3 to 20x20, k from 3 to the size");
        return -1;
    }
    K->size = size;
    K->k = k;
    K->table_limit = TABLE_LIMIT;
    K->cells = size * size;
    K->words = (K->cells + 63) / 64;
    if (!(K->gain = int_table(gain, k, "gain"))) return -1;
    if (!(K->weight = int_table(weight, k + 1, "weight"))) return -1;
    PyObject *fast = PySequence_Fast(lines, "lines");
    if (!fast) return -1;
    int L = (int)PySequence_Fast_GET_SIZE(fast);
    K->lines = L;
    K->line_cells = malloc((size_t)(L ? L : 1) * k * sizeof *K->line_cells);
    K->cell_start = calloc(K->cells + 1, sizeof *K->cell_start);
    K->cell_line = malloc((size_t)(L ? L : 1) * k * sizeof *K->cell_line);
    if (!K->line_cells || !K->cell_start || !K->cell_line) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (int line = 0; line < L; line++) {
        PyObject *cells = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, line), "a line");
        if (!cells) { Py_DECREF(fast); return -1; }
        if (PySequence_Fast_GET_SIZE(cells) != k) {
            Py_DECREF(cells); Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "every line holds k cells");
            return -1;
        }
        for (int i = 0; i < k; i++) {
            long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(cells, i));
            if (c < 0 || c >= K->cells) {
                Py_DECREF(cells); Py_DECREF(fast);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a cell off the board");
                return -1;
            }
            K->line_cells[(size_t)line * k + i] = (int16_t)c;
            K->cell_start[c + 1]++;
        }
        Py_DECREF(cells);
    }
    Py_DECREF(fast);
    for (int c = 0; c < K->cells; c++) K->cell_start[c + 1] += K->cell_start[c];
    int32_t *fill = calloc(K->cells, sizeof *fill);
    if (!fill) { PyErr_NoMemory(); return -1; }
    for (int line = 0; line < L; line++)
        for (int i = 0; i < k; i++) {
            int c = K->line_cells[(size_t)line * k + i];
            K->cell_line[K->cell_start[c] + fill[c]++] = line;
        }
    free(fill);
    for (int s = 0; s < 2; s++) {
        K->count[s] = calloc(L ? L : 1, 1);
        K->cat[s] = malloc(L ? L : 1);
        if (!K->count[s] || !K->cat[s]) { PyErr_NoMemory(); return -1; }
        for (int c = 0; c < 3; c++) {
            K->items[c][s] = malloc((size_t)(L ? L : 1) * sizeof(int32_t));
            K->pos[c][s] = malloc((size_t)(L ? L : 1) * sizeof(int32_t));
            if (!K->items[c][s] || !K->pos[c][s]) { PyErr_NoMemory(); return -1; }
        }
    }
    /* A line is at most every empty cell long; every frame plays a stone, so the depth and each
     * frame's move list are bounded by the cells. */
    K->row = K->cells + 16;
    K->scratch = malloc((size_t)(K->cells + 2) * K->row * sizeof *K->scratch);
    K->top = malloc((size_t)K->row * sizeof *K->top);
    K->moves = malloc((size_t)(K->cells + 2) * (K->cells + 2) * sizeof *K->moves);
    K->keys_gain = malloc((size_t)K->cells * sizeof *K->keys_gain);
    K->played = malloc((size_t)(K->cells + 2) * sizeof *K->played);
    if (!K->scratch || !K->top || !K->moves || !K->keys_gain || !K->played) {
        PyErr_NoMemory();
        return -1;
    }
    /* The empty board: every count 0, every line in no set (search() syncs from there). */
    for (int s = 0; s < 2; s++) memset(K->cat[s], NOCAT, L ? L : 1);
    for (int c = 0; c < MAXCELLS; c++) K->partners.slot[c] = -1;
    if (table_init(&K->failed, 2 * K->words + 1) < 0 || table_init(&K->proven, 2 * K->words) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static int read_bits(const Kernel *K, Py_buffer *buf, BB *out) {
    if (buf->len != K->words * 8) {
        PyErr_SetString(PyExc_ValueError, "a bitboard of words * 8 little-endian bytes expected");
        return -1;
    }
    const unsigned char *bytes = buf->buf;
    bb_clear(out);
    for (int i = 0; i < K->words * 8; i++)
        out->w[i / 8] |= (uint64_t)bytes[i] << (8 * (i % 8));
    if (K->cells & 63 && out->w[K->words - 1] >> (K->cells & 63)) {
        PyErr_SetString(PyExc_ValueError, "a stone off the board");
        return -1;
    }
    return 0;
}

static PyObject *Kernel_search(Kernel *K, PyObject *args) {
    int kind, side, most;
    long long max_nodes;
    Py_buffer xb, ob;
    PyObject *poll;
    if (!K->line_cells) {
        PyErr_SetString(PyExc_RuntimeError, "the Kernel was not set up");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "iy*y*iiLO", &kind, &xb, &ob, &side, &most, &max_nodes, &poll))
        return NULL;
    BB x, o;
    int bad = read_bits(K, &xb, &x) < 0 || read_bits(K, &ob, &o) < 0;
    PyBuffer_Release(&xb);
    PyBuffer_Release(&ob);
    if (bad) return NULL;
    if ((kind != 0 && kind != 1) || (side != 0 && side != 1)) {
        PyErr_SetString(PyExc_ValueError, "kind and side are 0 or 1");
        return NULL;
    }
    for (int w = 0; w < MAXW; w++) {
        if (x.w[w] & o.w[w]) {
            PyErr_SetString(PyExc_ValueError, "a cell holds two stones");
            return NULL;
        }
    }
    if (K->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the Kernel is already searching");
        return NULL;
    }
    sync_position(K, &x, &o);
    K->depth = 0;
    K->moves_top = 0;
    /* _deepen */
    if ((long long)K->failed.n > K->table_limit) table_clear(&K->failed);
    if ((long long)K->proven.n > K->table_limit) {
        table_clear(&K->proven);
        K->arena_n = 0;
    }
    K->limit = K->nodes + max_nodes;
    memset(K->refutations, 0, sizeof K->refutations);
    K->poll = poll;
    K->busy = 1;
    int found = NONE;
    for (int budget = 1; budget <= most; budget++) {
        long long cut = K->cut;
        found = kind == 0 ? vcf(K, side, budget, K->top) : vct(K, side, budget, K->top);
        if (found != NONE) break;
        if (K->cut == cut) break;
    }
    /* An interrupted search leaves its stones: take them back (the next sync starts from the
     * position searched). */
    while (K->depth > 0) {
        int last = K->played[K->depth - 1];
        undo(K, last >> 1, last & 1);
    }
    K->poll = NULL;
    K->busy = 0;
    if (found == FAILED) return NULL;
    if (found < 0) Py_RETURN_NONE;
    PyObject *line = PyList_New(found);
    if (!line) return NULL;
    for (int i = 0; i < found; i++) {
        PyObject *cell = PyLong_FromLong(K->top[i]);
        if (!cell) { Py_DECREF(line); return NULL; }
        PyList_SET_ITEM(line, i, cell);
    }
    return line;
}

/* Read (x, o, mask) bitboards and move the kernel's position to x, o: what the main search's
 * questions about gains start with. */
static int gain_position(Kernel *K, PyObject *args, int *side, BB *mask) {
    Py_buffer xb, ob, mb;
    if (!K->line_cells) {
        PyErr_SetString(PyExc_RuntimeError, "the Kernel was not set up");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "y*y*iy*", &xb, &ob, side, &mb)) return -1;
    BB x, o;
    int bad = read_bits(K, &xb, &x) < 0 || read_bits(K, &ob, &o) < 0
              || read_bits(K, &mb, mask) < 0;
    PyBuffer_Release(&xb);
    PyBuffer_Release(&ob);
    PyBuffer_Release(&mb);
    if (bad) return -1;
    if (*side != 0 && *side != 1) {
        PyErr_SetString(PyExc_ValueError, "side is 0 or 1");
        return -1;
    }
    for (int w = 0; w < MAXW; w++) {
        if (x.w[w] & o.w[w] || (x.w[w] | o.w[w]) & mask->w[w]) {
            PyErr_SetString(PyExc_ValueError, "a cell holds two stones, or a cell asked is taken");
            return -1;
        }
    }
    if (K->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the Kernel is already searching");
        return -1;
    }
    sync_position(K, &x, &o);
    return 0;
}

/* pvs.Searcher._frontier's loop: of the cells of mask (ascending), the first with the biggest
 * LineState.gain for side, that gain, and how many cells there were. */
static PyObject *Kernel_best_gain(Kernel *K, PyObject *args) {
    int side;
    BB mask;
    if (gain_position(K, args, &side, &mask) < 0) return NULL;
    long long best = 0;
    int best_cell = -1, count = 0;
    for (int w = 0; w < K->words; w++) {
        uint64_t bits = mask.w[w];
        while (bits) {
            int cell = w * 64 + CTZ(bits);
            bits &= bits - 1;
            long long value = gain_of(K, cell, side);
            if (best_cell < 0 || value > best) {
                best = value;
                best_cell = cell;
            }
            count++;
        }
    }
    return Py_BuildValue("iLi", best_cell, best, count);
}

/* LineState.gain of each cell of mask for side, ascending by cell. */
static PyObject *Kernel_gains(Kernel *K, PyObject *args) {
    int side;
    BB mask;
    if (gain_position(K, args, &side, &mask) < 0) return NULL;
    PyObject *out = PyList_New(bb_count(&mask));
    if (!out) return NULL;
    Py_ssize_t at = 0;
    for (int w = 0; w < K->words; w++) {
        uint64_t bits = mask.w[w];
        while (bits) {
            int cell = w * 64 + CTZ(bits);
            bits &= bits - 1;
            PyObject *value = PyLong_FromLongLong(gain_of(K, cell, side));
            if (!value) { Py_DECREF(out); return NULL; }
            PyList_SET_ITEM(out, at++, value);
        }
    }
    return out;
}

static PyObject *Kernel_table_sizes(Kernel *K, PyObject *Py_UNUSED(ignored)) {
    return Py_BuildValue("nn", (Py_ssize_t)K->failed.n, (Py_ssize_t)K->proven.n);
}

static PyMethodDef Kernel_methods[] = {
    {"search", (PyCFunction)Kernel_search, METH_VARARGS,
     "search(kind, x, o, side, most, max_nodes, poll) -> list[int] | None\n\n"
     "ThreatSearch._deepen with _vcf (kind 0) or _vct (kind 1) on the position x, o (little-"
     "endian bytes); poll (or None) is called every 64 nodes and may raise."},
    {"best_gain", (PyCFunction)Kernel_best_gain, METH_VARARGS,
     "best_gain(x, o, side, mask) -> (cell, gain, count)\n\n"
     "Of mask's cells (ascending), the first with the biggest LineState.gain for side (cell -1 "
     "for an empty mask), that gain, and how many cells mask holds."},
    {"gains", (PyCFunction)Kernel_gains, METH_VARARGS,
     "gains(x, o, side, mask) -> list[int]\n\nLineState.gain for side of each of mask's cells, "
     "ascending by cell."},
    {"table_sizes", (PyCFunction)Kernel_table_sizes, METH_NOARGS,
     "(entries of the failure table, entries of the proven table)"},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Kernel_members[] = {
    {"nodes", Py_T_LONGLONG, offsetof(Kernel, nodes), 0, "Nodes visited, over every search."},
    {"limit", Py_T_LONGLONG, offsetof(Kernel, limit), 0, "The node count the search stops past."},
    {"cut", Py_T_LONGLONG, offsetof(Kernel, cut), 0,
     "How many times a search stopped for want of attacking moves."},
    {"table_limit", Py_T_LONGLONG, offsetof(Kernel, table_limit), 0,
     "Entries a table may hold at a search's start before it is cleared."},
    {"words", Py_T_INT, offsetof(Kernel, words), Py_READONLY, "64-bit words of a bitboard."},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tictactoe_tui.engine._threatc.Kernel",
    .tp_doc = "Kernel(size, k, lines, gain, weight): ThreatSearch's VCF and VCT for one board "
              "shape, with its failure and proven tables.",
    .tp_basicsize = sizeof(Kernel),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Kernel_init,
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_methods = Kernel_methods,
    .tp_members = Kernel_members,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_threatc",
    "The compiled kernel of engine/threats.py's threat search (the pure code is the reference).",
    -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__threatc(void) {
    if (PyType_Ready(&KernelType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&KernelType);
    if (PyModule_AddObject(m, "Kernel", (PyObject *)&KernelType) < 0) {
        Py_DECREF(&KernelType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
