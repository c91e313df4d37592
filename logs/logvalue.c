/* logvalue: see logvalue.h. */
#include "logvalue.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"
#include "vbuild.h"

value *lr_openai_tool(arena *a, const value *name, const value *description,
                      const value *parameters)
{
    value *f = vb_object(a), *t = vb_object(a);
    int rc = vb_put(a, f, "name", vb_clone(a, name));
    if (description && description->kind == V_STRING)
        rc |= vb_put(a, f, "description", vb_clone(a, description));
    if (parameters && parameters->kind == V_OBJECT) {
        rc |= vb_put(a, f, "parameters", vb_clone(a, parameters));
    } else {
        value *p = vb_object(a);
        rc |= vb_put(a, p, "type", vb_str(a, "object"));
        rc |= vb_put(a, p, "properties", vb_object(a));
        rc |= vb_put(a, f, "parameters", p);
    }
    rc |= vb_put(a, t, "type", vb_str(a, "function"));
    rc |= vb_put(a, t, "function", f);
    return rc ? NULL : t;
}

const value *lr_keyed(const value *list, const char *key)
{
    for (size_t i = 0; list && list->kind == V_ARRAY && i < list->u.arr.len;
         i++) {
        const value *k = value_getz(list->u.arr.items[i], "key");
        if (k && k->kind == V_STRING && strcmp(k->u.str.ptr, key) == 0)
            return value_getz(list->u.arr.items[i], "value");
    }
    return NULL;
}

value *lr_string_attr(arena *a, const char *key, const value *text)
{
    value *kv = vb_object(a), *any = vb_object(a);
    if (!text || !kv || !any ||
        vb_put(a, any, "stringValue", vb_clone(a, text)) < 0 ||
        vb_put(a, kv, "key", vb_str(a, key)) < 0 ||
        vb_put(a, kv, "value", any) < 0)
        return NULL;
    return kv;
}

const value *lr_path(const value *v, const char *dotted)
{
    const char *p = dotted;
    while (v && *p) {
        size_t n = strcspn(p, ".");
        if (v->kind == V_OBJECT) {
            v = value_get(v, p, n);
        } else if (v->kind == V_ARRAY && n > 0 && strspn(p, "0123456789") >= n) {
            size_t i = (size_t)strtoul(p, NULL, 10);
            v = i < v->u.arr.len ? v->u.arr.items[i] : NULL;
        } else {
            return NULL;
        }
        p += n;
        if (*p == '.')
            p++;
    }
    return v;
}

int lr_content_text(buf *out, const value *content)
{
    if (!content)
        return 1;
    if (content->kind == V_STRING)
        return buf_append(out, content->u.str.ptr, content->u.str.len) < 0
                   ? -1
                   : 0;
    if (content->kind != V_ARRAY)
        return 1;
    int any = 0;
    for (size_t i = 0; i < content->u.arr.len; i++) {
        const value *part = content->u.arr.items[i];
        const value *t = value_getz(part, "text");
        if (part->kind == V_STRING)
            t = part;
        if (!t || t->kind != V_STRING)
            continue;
        if ((any && buf_putc(out, '\n') < 0) ||
            buf_append(out, t->u.str.ptr, t->u.str.len) < 0)
            return -1;
        any = 1;
    }
    return any ? 0 : 1;
}

int lr_name(char out[LR_NAME_MAX + 1], const value *a, const char *sep,
            const value *b)
{
    size_t na = a->u.str.len, ns = b ? strlen(sep) : 0;
    size_t nb = b ? b->u.str.len : 0;
    size_t len = na + ns + nb;
    if (len <= LR_NAME_MAX && !memchr(a->u.str.ptr, '\0', na) &&
        !(b && memchr(b->u.str.ptr, '\0', nb))) {
        memcpy(out, a->u.str.ptr, na);
        memcpy(out + na, sep, ns);
        if (b)
            memcpy(out + na + ns, b->u.str.ptr, nb);
        out[len] = '\0';
        return 0;
    }
    /* the whole, hashed: its parts with their lengths, so that no two
     * ways of splitting one text give one name */
    char whole[SHA256_HEX_LEN + 1];
    buf h = BUF_INIT;
    buf_printf(&h, "%zu:%zu:", na, nb);
    buf_append(&h, a->u.str.ptr, na);
    if (b)
        buf_append(&h, b->u.str.ptr, nb);
    int bad = h.failed || sha256_hex(whole, h.data, h.len) < 0;
    buf_free(&h);
    if (bad)
        return -1;
    /* the readable part: what comes before a NUL byte, at most
     * LR_NAME_MAX - 17 bytes, ended before a UTF-8 sequence */
    const char *p = a->u.str.ptr;
    size_t keep = na;
    const char *nul = memchr(p, '\0', na);
    if (nul)
        keep = (size_t)(nul - p);
    if (keep > LR_NAME_MAX - 17)
        keep = LR_NAME_MAX - 17;
    while (keep > 0 && keep < na && ((unsigned char)p[keep] & 0xc0) == 0x80)
        keep--;
    snprintf(out, LR_NAME_MAX + 1, "%.*s~%.16s", (int)keep, p, whole);
    return 0;
}

void lr_add_amount(double *sum, double x)
{
    *sum = isnan(*sum) ? x : *sum + x;
    if (isinf(*sum))
        *sum = DBL_MAX; /* two finite amounts whose sum no double holds */
}

void lr_add_count(int64_t *sum, int64_t n)
{
    if (*sum < 0)
        *sum = n;
    else
        *sum = n > INT64_MAX - *sum ? INT64_MAX : *sum + n;
}
