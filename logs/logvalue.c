/* logvalue: see logvalue.h. */
#include "logvalue.h"

#include <stdlib.h>
#include <string.h>

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

