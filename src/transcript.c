/* transcript: see transcript.h. */
#include "transcript.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "json_load.h"
#include "task.h"

static const char *const type_names[] = {"run", "episode", "call", "end"};

static size_t skip_blanks(const char *p, size_t len, size_t i)
{
    while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' ||
                       p[i] == '\n'))
        i++;
    return i;
}

/* The first byte from i on that is not printable ASCII or is a quote or
 * a backslash (len when none): eight bytes at a time where the machine
 * reads words from their low byte, each word's stops flagged by the
 * classic zero-byte test (exact for its lowest flag, which is all that is
 * taken). */
static size_t plain_until(const char *p, size_t len, size_t i)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    for (; i + 8 <= len; i += 8) {
        uint64_t w, q, b, del;
        memcpy(&w, p + i, 8);
        q = w ^ (ones * '"');
        b = w ^ (ones * '\\');
        del = w ^ (ones * 0x7f);
        uint64_t stop = ((q - ones) & ~q) | ((b - ones) & ~b) |
                        ((del - ones) & ~del) |
                        ((w - ones * 0x20) & ~w) | w;
        stop &= highs;
        if (stop)
            return i + (size_t)__builtin_ctzll(stop) / 8;
    }
#endif
    for (; i < len; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == '"' || c == '\\' || c < 0x20 || c > 0x7e)
            return i;
    }
    return len;
}

/* The offset past the string that starts at i (its quote), or 0 when it
 * does not end within len; *plain says whether it holds printable ASCII
 * only, with no escape. */
static size_t route_string(const char *p, size_t len, size_t i, int *plain)
{
    i = plain_until(p, len, i + 1);
    if (i < len && p[i] == '"') {
        *plain = 1;
        return i + 1;
    }
    *plain = 0;
    for (; i < len; i++) {
        char c = p[i];
        if (c == '"')
            return i + 1;
        if (c == '\\')
            i++;
    }
    return 0;
}

/* The offset past the object or array that starts at i, by its brackets
 * and strings alone; 0 when it does not close within len. */
static size_t route_nested(const char *p, size_t len, size_t i)
{
    size_t depth = 0;
    int plain;
    for (; i < len; i++) {
        char c = p[i];
        if (c == '"') {
            if (!(i = route_string(p, len, i, &plain)))
                return 0;
            i--; /* its closing quote */
        } else if (c == '{' || c == '[') {
            depth++;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return i + 1;
        }
    }
    return 0;
}

/* The next member of the top-level object of text, from *i (the
 * object's '{', or the ',' after the member before): its key from *k
 * (its quote) to *kend, its value from *v to *vend, and in *plain
 * whether the key is plain (printable ASCII, no escape) and, bit 1,
 * whether the value is a plain string; *i becomes the ',' after it, or
 * len after the last member (then nothing but blanks follow its '}').
 * 1, or -1 when the text is not plainly an object of members, or is an
 * empty one (values are skipped by their nesting, not read). */
static int next_member(const char *text, size_t len, size_t *i, size_t *k,
                       size_t *kend, size_t *v, size_t *vend, int *plain)
{
    int kp, vp = 0;
    size_t j = skip_blanks(text, len, *i);
    if (j == len || (text[j] != '{' && text[j] != ','))
        return -1;
    j = skip_blanks(text, len, j + 1);
    if (j == len || text[j] != '"' ||
        !(*kend = route_string(text, len, j, &kp)))
        return -1;
    *k = j;
    j = skip_blanks(text, len, *kend);
    if (j == len || text[j] != ':')
        return -1;
    j = skip_blanks(text, len, j + 1);
    if (j == len)
        return -1;
    *v = j;
    if (text[j] == '"') {
        *vend = route_string(text, len, j, &vp);
    } else if (text[j] == '{' || text[j] == '[') {
        *vend = route_nested(text, len, j);
    } else {
        size_t e = j;
        while (e < len && !strchr(",} \t\r\n", text[e]))
            e++;
        *vend = e > j ? e : 0;
    }
    if (!*vend)
        return -1;
    j = skip_blanks(text, len, *vend);
    if (j == len || (text[j] != '}' && text[j] != ','))
        return -1;
    if (text[j] == '}') { /* the last member: nothing but blanks after */
        if (skip_blanks(text, len, j + 1) != len)
            return -1;
        j = len;
    }
    *i = j;
    *plain = kp | vp << 1;
    return 1;
}

/* "type", "run" and "episode": the members that say whose a line is */
static const char *const route_keys[3] = {"type", "run", "episode"};
static const size_t route_key_lens[3] = {4, 3, 7};

/* tline_route for a line laid out as replay sim, replay serve and most
 * writers lay it out: {"type":"T","run":"R","episode":"E", or } at the
 * end.  1 when it is, with what tline_route gives; else 0. */
static int route_written(const char *text, size_t len, enum tline_type *type,
                         const char **run, size_t *run_len,
                         const char **episode, size_t *episode_len)
{
    static const char open[] = "{\"type\":\"", runk[] = ",\"run\":\"",
                      epk[] = ",\"episode\":\"";
    size_t i = sizeof open - 1;
    /* room for the longest type and the run's key: the comparisons up to
     * the run's name stay within the line */
    if (len < i + sizeof "episode\"" - 1 + sizeof runk - 1 ||
        memcmp(text, open, i) != 0)
        return 0;
    if (memcmp(text + i, "call\"", 5) == 0) {
        *type = TL_CALL;
        i += 5;
    } else if (memcmp(text + i, "episode\"", 8) == 0) {
        *type = TL_EPISODE;
        i += 8;
    } else if (memcmp(text + i, "end\"", 4) == 0) {
        *type = TL_END;
        i += 4;
    } else {
        return 0;
    }
    if (memcmp(text + i, runk, sizeof runk - 1) != 0)
        return 0;
    i += sizeof runk - 1;
    size_t e = plain_until(text, len, i);
    if (e == len || text[e] != '"' || len - e < sizeof epk + 1 ||
        memcmp(text + e + 1, epk, sizeof epk - 1) != 0)
        return 0;
    *run = text + i;
    *run_len = e - i;
    i = e + sizeof epk;
    e = plain_until(text, len, i);
    if (e + 1 >= len || text[e] != '"')
        return 0;
    if (text[e + 1] != ',' &&
        (text[e + 1] != '}' || skip_blanks(text, len, e + 2) != len))
        return 0;
    *episode = text + i;
    *episode_len = e - i;
    return 1;
}

int tline_route(const char *text, size_t len, enum tline_type *type,
                const char **run, size_t *run_len, const char **episode,
                size_t *episode_len)
{
    if (route_written(text, len, type, run, run_len, episode, episode_len))
        return 1;
    const char *at[3] = {NULL, NULL, NULL};
    size_t n[3] = {0, 0, 0}, found = 0;
    size_t i = skip_blanks(text, len, 0), k, kend, v, vend;
    int plain;
    while (found < 3) {
        if (i >= len ||
            next_member(text, len, &i, &k, &kend, &v, &vend, &plain) != 1 ||
            !(plain & 1)) /* a key that may need decoding */
            return 0;
        size_t klen = kend - k - 2;
        for (int m = 0; m < 3; m++) {
            if (klen != route_key_lens[m] ||
                memcmp(text + k + 1, route_keys[m], klen) != 0)
                continue;
            if (at[m] || !(plain & 2))
                return 0;
            at[m] = text + v + 1;
            n[m] = vend - v - 2;
            found++;
        }
    }
    for (int t = TL_EPISODE; t <= TL_END; t++) {
        if (n[0] == strlen(type_names[t]) &&
            memcmp(at[0], type_names[t], n[0]) == 0) {
            *type = (enum tline_type)t;
            *run = at[1];
            *run_len = n[1];
            *episode = at[2];
            *episode_len = n[2];
            return 1;
        }
    }
    return 0;
}

/* Of an object text that json_load read and flagged VF_REPEATED: the
 * first of "type", "run" and "episode" given more than once at its top
 * level (keys compared decoded), or NULL.  -1 out of memory. */
static int repeated_route_key(arena *a, const char *text, size_t len,
                              const char **which, err *e)
{
    unsigned seen[3] = {0, 0, 0};
    size_t i = skip_blanks(text, len, 0), k, kend, v, vend;
    int plain;
    *which = NULL;
    while (i < len &&
           next_member(text, len, &i, &k, &kend, &v, &vend, &plain) == 1) {
        const char *key = text + k + 1;
        size_t klen = kend - k - 2;
        if (memchr(key, '\\', klen)) {
            value *d = NULL;
            err le;
            if (json_load(&d, a, text + k, kend - k, &le) < 0) {
                if (le.code == ERR_NOMEM)
                    return err_set(e, ERR_NOMEM, "out of memory");
                continue;
            }
            key = d->u.str.ptr;
            klen = d->u.str.len;
        }
        for (int m = 0; m < 3; m++)
            if (klen == route_key_lens[m] &&
                memcmp(key, route_keys[m], klen) == 0 && seen[m]++) {
                *which = route_keys[m];
                return 0;
            }
    }
    return 0;
}

int tline_names(arena *a, const char *text, size_t len, const char **run,
                const char **episode, err *e)
{
    size_t i = skip_blanks(text, len, 0), k, kend, v, vend;
    int plain;
    *run = *episode = NULL;
    while (i < len &&
           next_member(text, len, &i, &k, &kend, &v, &vend, &plain) == 1) {
        if (text[v] != '"') /* no name: skipped */
            continue;
        /* key and value, each decoded as JSON text of its own */
        value *kv[2] = {NULL, NULL};
        size_t from[2] = {k, v}, to[2] = {kend, vend};
        for (int m = 0; m < 2; m++) {
            err le;
            if (json_load(&kv[m], a, text + from[m], to[m] - from[m], &le) <
                0) {
                if (le.code == ERR_NOMEM)
                    return err_set(e, ERR_NOMEM, "out of memory");
                return 0;
            }
        }
        const value *key = kv[0], *val = kv[1];
        int named = !memchr(val->u.str.ptr, 0, val->u.str.len);
        /* a key given twice: the last one, as a reader of the line would
         * take it (as far as the line can be seen) */
        if (key->u.str.len == 3 && memcmp(key->u.str.ptr, "run", 3) == 0)
            *run = named ? val->u.str.ptr : NULL;
        else if (key->u.str.len == 7 &&
                 memcmp(key->u.str.ptr, "episode", 7) == 0)
            *episode = named ? val->u.str.ptr : NULL;
    }
    return 0;
}

const char *tline_type_name(enum tline_type t)
{
    return type_names[t];
}

static const char *kind_of(const value *v)
{
    return value_kind_phrase((value_kind)v->kind);
}

/* The string v, the member key of a line of type t: *out NULL when v is
 * absent (NULL) or null; -1 (e set) when it is not a string. */
static int str_of(const value *v, const char *key, int required,
                  enum tline_type t, const char **out, err *e)
{
    *out = NULL;
    if (!v || v->kind == V_NULL) {
        if (required)
            return err_set(e, ERR_VALUE, "no \"%s\" (a string) on this %s "
                                         "line",
                           key, type_names[t]);
        return 0;
    }
    if (v->kind != V_STRING)
        return err_set(e, ERR_VALUE, "\"%s\" must be a string, not %s",
                       key, kind_of(v));
    if (memchr(v->u.str.ptr, '\0', v->u.str.len) || (v->flags & VF_UNENCODABLE))
        return err_set(e, ERR_VALUE, "\"%s\" holds a NUL or a lone surrogate",
                       key);
    *out = v->u.str.ptr;
    return 0;
}

/* A string member: the same, of the member key of the object o. */
static int get_str(const value *o, const char *key, int required,
                   enum tline_type t, const char **out, err *e)
{
    return str_of(value_getz(o, key), key, required, t, out, e);
}

/* The episode's name: a string, or an integer written as its digits. */
static int get_episode(const value *o, enum tline_type t, const char **out,
                       err *e)
{
    const value *v = value_getz(o, "episode");
    if (v && v->kind == V_INT) {
        *out = v->u.str.ptr;
        return 0;
    }
    return get_str(o, "episode", 1, t, out, e);
}

static int get_seed(const value *v, uint64_t *out, err *e)
{
    if (!v)
        return err_set(e, ERR_VALUE, "no \"seed\" (a non-negative integer) "
                                     "on this episode line");
    if (v->kind != V_INT || v->u.str.ptr[0] == '-')
        return err_set(e, ERR_VALUE, "\"seed\" must be a non-negative "
                                     "integer, not %s",
                       v->kind == V_INT ? "a negative one" : kind_of(v));
    errno = 0;
    char *end;
    unsigned long long s = strtoull(v->u.str.ptr, &end, 10);
    if (errno || *end || s > TASK_SEED_MAX)
        return err_set(e, ERR_VALUE, "\"seed\" must be below 2^63 "
                                     "(9223372036854775808)");
    *out = s;
    return 0;
}

/* An episode line's seed and arm (NULL: absent): 0 neither (an observed
 * episode), 1 both, read into *seed and *a; -1 (ERR_VALUE). */
static int seed_arm(const value *sv, const value *av, uint64_t *seed, arm *a,
                    err *e)
{
    int has_seed = sv && sv->kind != V_NULL;
    int has_arm = av && av->kind != V_NULL;
    if (has_seed != has_arm)
        return err_set(e, ERR_VALUE, "no \"%s\" on this episode line; "
                                     "give both \"seed\" and \"arm\" "
                                     "(replayed by the simulator), or "
                                     "neither (observed elsewhere)",
                       has_seed ? "arm" : "seed");
    if (!has_seed)
        return 0;
    const char *arm_text = NULL;
    if (get_seed(sv, seed, e) < 0 ||
        str_of(av, "arm", 1, TL_EPISODE, &arm_text, e) < 0 ||
        arm_parse(a, arm_text, strlen(arm_text), e) < 0) {
        if (e->code == ERR_USAGE)
            e->code = ERR_VALUE;
        return -1;
    }
    return 1;
}

/* An episode line's task_name (NULL: absent): a string, or an integer as
 * its digits.  0, or -1 (ERR_VALUE). */
static int task_name_of(const value *v, const char **out, err *e)
{
    if (v && v->kind == V_INT) {
        *out = v->u.str.ptr;
        return 0;
    }
    return str_of(v, "task_name", 0, TL_EPISODE, out, e);
}

int tline_seed_arm(const value *seed, const value *arm, err *e)
{
    uint64_t s;
    struct arm a;
    return seed_arm(seed, arm, &s, &a, e);
}

int tline_task_name(const value *name, err *e)
{
    const char *t;
    return task_name_of(name, &t, e);
}

/* The end line's final words: a string as it is, anything else as JSON. */
static int get_text(arena *a, const value *o, const char *key,
                    const char **out, err *e)
{
    const value *v = value_getz(o, key);
    *out = NULL;
    if (!v || v->kind == V_NULL)
        return 0;
    if (v->kind == V_STRING && !(v->flags & VF_UNENCODABLE)) {
        *out = v->u.str.ptr;
        return 0;
    }
    buf b = BUF_INIT;
    if (canon_write(&b, v, e) < 0) {
        buf_free(&b);
        return -1;
    }
    *out = arena_memdup(a, b.data, b.len);
    buf_free(&b);
    return *out ? 0 : err_set(e, ERR_NOMEM, "out of memory");
}

int tline_parse(tline *out, arena *a, const char *text, size_t len,
                const char *default_run, err *e)
{
    value *v = NULL;
    size_t answer_at, answer_len;
    memset(out, 0, sizeof *out);
    if (json_load_member(&v, a, text, len, "answer", &answer_at, &answer_len,
                         e) < 0) {
        if (e->code == ERR_NOMEM)
            return -1;
        char why[sizeof e->msg];
        static const char prefix[] = "invalid JSON: ";
        const char *m = e->msg;
        if (strncmp(m, prefix, sizeof prefix - 1) == 0)
            m += sizeof prefix - 1;
        snprintf(why, sizeof why, "%s", m);
        if (e->col)
            return err_set(e, ERR_VALUE, "not JSON: %s (column %u)", why,
                           e->col);
        return err_set(e, ERR_VALUE, "not JSON: %s", why);
    }
    /* A line that gives its type, run or episode twice is refused rather
     * than read as JSON reads it (the last one): readers differ, and
     * replay's shards route a line by the first (tline_route). */
    if (v->kind == V_OBJECT && (v->flags & VF_REPEATED)) {
        const char *which;
        if (repeated_route_key(a, text, len, &which, e) < 0)
            return -1;
        if (which)
            return err_set(e, ERR_VALUE, "\"%s\" is given more than once on "
                                         "this line; give it once (readers "
                                         "of JSON differ on which one "
                                         "counts)",
                           which);
    }
    return tline_read(out, a, v, text, answer_at, answer_len, default_run,
                      e);
}

/* A count of tokens: -1 when absent or null; else a whole number from 0
 * up that an SQLite integer holds (value_count), or -1 with e set. */
static int get_tokens(const value *o, const char *key, int64_t *out, err *e)
{
    const value *v = value_getz(o, key);
    *out = -1;
    switch (value_count(v, out)) {
    case VFIG_OK:
    case VFIG_NONE:
        return 0;
    case VFIG_HUGE:
        return err_set(e, ERR_VALUE, "\"%s\" is too large: at most %lld "
                                     "tokens are counted",
                       key, (long long)INT64_MAX);
    case VFIG_NEGATIVE:
        return err_set(e, ERR_VALUE, "\"%s\" must be a whole number from 0 "
                                     "up, not a negative one",
                       key);
    case VFIG_FRACTION:
        return err_set(e, ERR_VALUE, "\"%s\" must be a whole number from 0 "
                                     "up, not a fraction",
                       key);
    case VFIG_FLOAT_BIG:
        return err_set(e, ERR_VALUE, "\"%s\" must be a whole number from 0 "
                                     "up, not a float past 2^53 (write a "
                                     "count as its digits)",
                       key);
    default:
        return err_set(e, ERR_VALUE, "\"%s\" must be a whole number from 0 "
                                     "up, not %s",
                       key, kind_of(v));
    }
}

/* An amount (seconds, a cost): NAN when absent or null; else a finite
 * number, 0 or more (value_amount), or -1 with e set.  what: "seconds". */
static int get_amount(const value *o, const char *key, const char *what,
                      double *out, err *e)
{
    const value *v = value_getz(o, key);
    *out = NAN;
    value_figure f = value_amount(v, out);
    if (f == VFIG_OK || f == VFIG_NONE)
        return 0;
    return err_set(e, ERR_VALUE, "\"%s\" must be a number of %s, 0 or "
                                 "more, not %s",
                   key, what,
                   f == VFIG_NEGATIVE ? "a negative one"
                   : f == VFIG_HUGE   ? "one that large"
                                      : kind_of(v));
}

int tline_read(tline *out, arena *a, const value *v, const char *text,
               size_t answer_at, size_t answer_len, const char *default_run,
               err *e)
{
    memset(out, 0, sizeof *out);
    out->duration = out->cost = NAN;
    out->input_tokens = out->output_tokens = -1;
    if (v->kind != V_OBJECT)
        return err_set(e, ERR_VALUE, "a transcript line must be a JSON "
                                     "object, not %s",
                       kind_of(v));
    out->root = v;
    const value *type = value_getz(v, "type");
    if (!type)
        return err_set(e, ERR_VALUE, "no \"type\": a line's type is run, "
                                     "episode, call or end");
    int t = -1;
    for (int i = 0; i < 4 && type->kind == V_STRING; i++)
        if (strcmp(type->u.str.ptr, type_names[i]) == 0)
            t = i;
    if (t < 0) {
        if (type->kind != V_STRING)
            return err_set(e, ERR_VALUE, "\"type\" must be a string (run, "
                                         "episode, call or end), not %s",
                           kind_of(type));
        return err_set(e, ERR_VALUE, "unknown type \"%.60s\": a line's type "
                                     "is run, episode, call or end",
                       type->u.str.ptr);
    }
    out->type = (enum tline_type)t;
    if (get_str(v, "run", default_run == NULL, out->type, &out->run, e) < 0)
        return -1;
    if (!out->run)
        out->run = default_run;
    switch (out->type) {
    case TL_RUN:
        if (get_str(v, "tools", 1, out->type, &out->tools, e) < 0 ||
            get_str(v, "tools_sha256", 0, out->type, &out->tools_sha256, e) <
                0 ||
            get_str(v, "model", 0, out->type, &out->model, e) < 0)
            return -1;
        out->meta = value_getz(v, "meta");
        return 0;
    case TL_EPISODE: {
        if (get_episode(v, out->type, &out->episode, e) < 0)
            return -1;
        int both = seed_arm(value_getz(v, "seed"), value_getz(v, "arm"),
                            &out->seed, &out->arm, e);
        if (both < 0)
            return -1;
        out->observed = !both;
        if (task_name_of(value_getz(v, "task_name"), &out->task_name, e) < 0)
            return -1;
        out->task = value_getz(v, "task");
        if (out->task && out->task->kind == V_NULL)
            out->task = NULL;
        if (out->task && out->task->kind != V_OBJECT)
            return err_set(e, ERR_VALUE, "\"task\" must be an object (as "
                                         "replay tasks prints it), not %s",
                           kind_of(out->task));
        if (out->task && out->observed)
            return err_set(e, ERR_VALUE, "an observed episode (no seed, no "
                                         "arm) has no \"task\" to hand in; "
                                         "name the task with \"task_name\"");
        return 0;
    }
    case TL_CALL:
        if (get_episode(v, out->type, &out->episode, e) < 0)
            return -1;
        out->call_value = value_getz(v, "call");
        if (!out->call_value)
            return err_set(e, ERR_VALUE, "no \"call\" on this call line");
        if (call_read(&out->call, a, out->call_value, e) < 0 ||
            get_amount(v, "duration", "seconds", &out->duration, e) < 0)
            return -1;
        out->answer = value_getz(v, "answer");
        if (out->answer && answer_len) {
            out->answer_text = text + answer_at;
            out->answer_len = answer_len;
        }
        return 0;
    case TL_END: {
        if (get_episode(v, out->type, &out->episode, e) < 0 ||
            get_text(a, v, "status", &out->status, e) < 0 ||
            get_text(a, v, "final", &out->final, e) < 0)
            return -1;
        const value *success = value_getz(v, "success");
        const value *reward = value_getz(v, "reward");
        out->success = -1;
        if (success && success->kind != V_NULL) {
            if (success->kind != V_BOOL)
                return err_set(e, ERR_VALUE, "\"success\" must be true or "
                                             "false, not %s",
                               kind_of(success));
            out->success = success->u.b ? 1 : 0;
        }
        switch (value_reward(reward, &out->reward)) {
        case VFIG_NONE:
            break;
        case VFIG_OK:
            out->has_reward = 1;
            break;
        case VFIG_HUGE:
            return err_set(e, ERR_VALUE, "\"reward\" must be a finite "
                                         "number");
        default:
            return err_set(e, ERR_VALUE, "\"reward\" must be a number, "
                                         "not %s",
                           kind_of(reward));
        }
        if (get_tokens(v, "input_tokens", &out->input_tokens, e) < 0 ||
            get_tokens(v, "output_tokens", &out->output_tokens, e) < 0 ||
            get_amount(v, "cost", "dollars", &out->cost, e) < 0 ||
            get_amount(v, "duration", "seconds", &out->duration, e) < 0)
            return -1;
        return 0;
    }
    }
    return 0;
}
