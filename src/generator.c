/* generator: see generator.h. */
#include "generator.h"

#include <stdint.h>
#include <string.h>

#include "answer.h"
#include "arm.h"
#include "canon.h"
#include "doc.h"
#include "draw.h"
#include "sim.h"
#include "task.h"
#include "tools.h"
#include "vbuild.h"

/* The probe: MCP tools whose schemas use every rule of docs/draws.md. */
static const char probe[] =
    "{\"tools\":["
    "{\"name\":\"get_order\",\"inputSchema\":{\"type\":\"object\","
    "\"required\":[\"order_id\"],\"properties\":{\"order_id\":{\"type\":"
    "\"string\",\"minLength\":6,\"maxLength\":6}}}},"
    "{\"name\":\"refund_order\",\"inputSchema\":{\"type\":\"object\","
    "\"required\":[\"order_id\",\"amount\"],\"properties\":{\"order_id\":"
    "{\"type\":\"string\"},\"amount\":{\"type\":\"number\",\"minimum\":0,"
    "\"exclusiveMaximum\":500},\"reason\":{\"enum\":[\"damaged\",\"late\","
    "\"other\"]}}},\"outputSchema\":{\"type\":\"object\",\"properties\":{"
    "\"refund_id\":{\"type\":\"string\",\"pattern\":\"^R-[0-9]{5}$\"},"
    "\"order_id\":{\"type\":\"string\"},\"amount\":{\"type\":\"number\"},"
    "\"at\":{\"type\":\"string\",\"format\":\"date-time\"}}}},"
    "{\"name\":\"list_people\",\"annotations\":{\"readOnlyHint\":true},"
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"limit\":{\"type\":"
    "\"integer\",\"minimum\":1,\"maximum\":50,\"multipleOf\":5},\"tags\":{"
    "\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":1,"
    "\"maxItems\":4,\"uniqueItems\":true}}},\"outputSchema\":{\"type\":"
    "\"object\",\"properties\":{\"people\":{\"type\":\"array\",\"items\":{"
    "\"$ref\":\"#/$defs/Person\"}}}}},"
    "{\"name\":\"set_contact\",\"inputSchema\":{\"type\":\"object\","
    "\"properties\":{\"contact\":{\"oneOf\":[{\"type\":\"object\",\"required\":"
    "[\"email\"],\"properties\":{\"email\":{\"type\":\"string\",\"format\":"
    "\"email\"}}},{\"type\":\"object\",\"required\":[\"phone\"],\"properties\":"
    "{\"phone\":{\"type\":\"string\"}}}]},\"when\":{\"type\":\"string\","
    "\"format\":\"date\"},\"site\":{\"type\":\"string\",\"format\":\"uri\"},"
    "\"key\":{\"type\":\"string\",\"format\":\"uuid\"},\"on\":{\"type\":"
    "\"boolean\"},\"note\":{\"type\":[\"string\",\"null\"]}}}},"
    /* the write rule through allOf, and $defs inside a tool's schema */
    "{\"name\":\"add_pet\",\"inputSchema\":{\"type\":\"object\","
    "\"required\":[\"name\"],\"properties\":{\"name\":{\"type\":"
    "\"string\"},\"tag\":{\"type\":\"string\"}}},\"outputSchema\":{"
    "\"allOf\":[{\"$ref\":\"#/$defs/Person\"},{\"type\":\"object\","
    "\"properties\":{\"tag\":{\"type\":\"string\"}}}]}},"
    "{\"name\":\"add_items\",\"inputSchema\":{\"$defs\":{\"Item\":{"
    "\"type\":\"object\",\"required\":[\"sku\"],\"properties\":{"
    "\"sku\":{\"type\":\"string\",\"pattern\":\"^[A-Z]{3}$\"}}}},"
    "\"type\":\"object\",\"required\":[\"items\"],\"properties\":{"
    "\"items\":{\"type\":\"array\",\"items\":{\"$ref\":"
    "\"#/$defs/Item\"}}}}},"
    /* the formats people write besides JSON Schema's */
    "{\"name\":\"set_network\",\"inputSchema\":{\"type\":\"object\","
    "\"properties\":{\"ip\":{\"type\":\"string\",\"format\":"
    "\"ip-address\"},\"net\":{\"type\":\"string\",\"format\":\"cidr\"},"
    "\"blob\":{\"type\":\"string\",\"format\":\"byte\"},\"link\":{"
    "\"type\":\"string\",\"format\":\"url\"},\"since\":{\"type\":"
    "\"string\",\"format\":\"dateTime\"},\"ttl\":{\"type\":"
    "\"integer\",\"format\":\"uint8\"},\"delta\":{\"type\":"
    "\"integer\",\"format\":\"int8\",\"minimum\":-1000}}}}],"
    "\"$defs\":{\"Person\":{\"allOf\":[{\"type\":\"object\",\"required\":["
    "\"id\"],\"properties\":{\"id\":{\"type\":\"string\"},\"name\":{\"type\":"
    "\"string\"}}},{\"properties\":{\"host\":{\"type\":\"string\",\"format\":"
    "\"hostname\"},\"ip\":{\"type\":\"string\",\"format\":\"ipv4\"}}}]}}}";

static int put_value(buf *out, const value *v, err *e)
{
    buf one = BUF_INIT;
    int rc = canon_write(&one, v, e);
    if (rc == 0 && (buf_append(out, one.data, one.len) < 0 ||
                    buf_putc(out, '\n') < 0))
        rc = err_set(e, ERR_NOMEM, "out of memory");
    buf_free(&one);
    return rc;
}

/* Everything the generator makes on the probe, one JSON text a line. */
static int produce(buf *out, const toolset *ts, err *e)
{
    for (uint64_t seed = 1; seed <= 16; seed++)
        for (size_t i = 0; i < ts->ntools; i++) {
            const tool *t = &ts->tools[i];
            arena *a = arena_new();
            value *args = NULL, *answer = NULL, *placed = NULL;
            draw_key k;
            draw_key_init(&k, ts->doc->file_sha256, seed, t->name, "{}", 2);
            int rc = a ? 0 : err_set(e, ERR_NOMEM, "out of memory");
            if (rc == 0)
                rc = draw_value(&args, a, ts->doc->root, t->input_schema, &k,
                                "$", e);
            if (rc == 0)
                rc = answer_draw(&answer, a, ts, t, args, seed, e);
            if (rc == 0)
                rc = answer_place_args(&placed, a, ts, t, answer, args, e);
            if (rc == 0)
                rc = put_value(out, args, e);
            if (rc == 0)
                rc = put_value(out, answer, e);
            if (rc == 0)
                rc = put_value(out, placed, e);
            arena_free(a);
            if (rc < 0)
                return -1;
        }
    for (int f = TOOLS_OPENAI; f <= TOOLS_OPENAPI; f++)
        for (int c = SIM_NOT_FOUND; c <= SIM_RATE_LIMITED; c++)
            if (answer_error(out, (enum tool_format)f, (enum sim_error)c,
                             "probe") < 0 ||
                buf_putc(out, '\n') < 0)
                return err_set(e, ERR_NOMEM, "out of memory");
    return 0;
}

/* The second probe: the reference page's five tools. */
static const char shop[] =
    "[{\"type\":\"function\",\"function\":{\"name\":\"get_order\","
    "\"parameters\":{\"type\":\"object\",\"required\":[\"order_id\"],"
    "\"properties\":{\"order_id\":{\"type\":\"string\",\"minLength\":6,"
    "\"maxLength\":6}}}}},"
    "{\"type\":\"function\",\"function\":{\"name\":\"search_orders\","
    "\"parameters\":{\"type\":\"object\",\"properties\":{\"query\":{"
    "\"type\":\"string\"}}}}},"
    "{\"type\":\"function\",\"function\":{\"name\":\"refund_order\","
    "\"parameters\":{\"type\":\"object\",\"required\":[\"order_id\","
    "\"amount\"],\"properties\":{\"order_id\":{\"type\":\"string\","
    "\"minLength\":6,\"maxLength\":6},\"amount\":{\"type\":\"number\","
    "\"minimum\":0},\"reason\":{\"type\":\"string\",\"enum\":["
    "\"damaged\",\"late\",\"other\"]}}}}},"
    "{\"type\":\"function\",\"function\":{\"name\":\"notify_customer\","
    "\"parameters\":{\"type\":\"object\",\"required\":[\"order_id\","
    "\"channel\"],\"properties\":{\"order_id\":{\"type\":\"string\","
    "\"minLength\":6,\"maxLength\":6},\"channel\":{\"type\":\"string\","
    "\"enum\":[\"email\",\"sms\"]}}}}},"
    "{\"type\":\"function\",\"function\":{\"name\":\"list_channels\","
    "\"parameters\":{\"type\":\"object\",\"properties\":{}}}}]";

/* The third probe: chains a seed may draw and not build (get_short's id
 * is too short for an owner), a read whose handed field could share
 * its argument's name (get_user), and a stated note that could say the
 * handed value. */
static const char chains[] =
    "[{\"name\":\"get_short\",\"annotations\":{\"readOnlyHint\":true},"
    "\"inputSchema\":{\"type\":\"object\",\"required\":[\"q\"],"
    "\"properties\":{\"q\":{\"type\":\"string\"}}},\"outputSchema\":{"
    "\"type\":\"object\",\"required\":[\"id\"],\"properties\":{\"id\":{"
    "\"type\":\"string\",\"maxLength\":4}}}},"
    "{\"name\":\"get_user\",\"annotations\":{\"readOnlyHint\":true},"
    "\"inputSchema\":{\"type\":\"object\",\"required\":[\"username\"],"
    "\"properties\":{\"username\":{\"type\":\"string\"}}},"
    "\"outputSchema\":{\"type\":\"object\",\"properties\":{\"username\":{"
    "\"type\":\"string\"},\"handle\":{\"type\":\"string\"}}}},"
    "{\"name\":\"set_owner\",\"inputSchema\":{\"type\":\"object\","
    "\"required\":[\"owner\",\"note\"],\"properties\":{\"owner\":{"
    "\"type\":\"string\",\"minLength\":8},\"note\":{\"type\":"
    "\"string\"}}}}]";

/* The fourth probe: a read without output schema that takes an "id"
 * (its answer's id hands the value), and a handed date, which baddata:b3
 * moves by a day when its last digit cannot change. */
static const char dated[] =
    "[{\"name\":\"get_box\",\"inputSchema\":{\"type\":\"object\","
    "\"required\":[\"id\"],\"properties\":{\"id\":{\"type\":"
    "\"string\"}}}},"
    "{\"name\":\"ship_box\",\"inputSchema\":{\"type\":\"object\","
    "\"required\":[\"ship_on\"],\"properties\":{\"ship_on\":{"
    "\"type\":\"string\",\"format\":\"date\"}}}}]";

/* The tasks of arm arm_text on the tools ts, seeds 1 to seeds. */
static int produce_arm(buf *out, const toolset *ts, const char *arm_text,
                       uint64_t seeds, err *e)
{
    arm arm;
    if (arm_parse(&arm, arm_text, strlen(arm_text), e) < 0)
        return -1;
    for (uint64_t seed = 1; seed <= seeds; seed++) {
        arena *a = arena_new();
        task *t = NULL;
        value *v = NULL;
        int rc = a ? 0 : err_set(e, ERR_NOMEM, "out of memory");
        if (rc == 0)
            rc = task_make(&t, a, ts, seed, &arm, e);
        if (rc == 0 && !(v = task_to_value(a, t, GENERATOR_VERSION)))
            rc = err_set(e, ERR_NOMEM, "out of memory");
        if (rc == 0)
            rc = put_value(out, v, e);
        arena_free(a);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* The tasks of baddata:b3 of the dated probe, seeds 1 to 64. */
static int produce_dated(buf *out, const toolset *ts, err *e)
{
    return produce_arm(out, ts, "baddata:b3", 64, e);
}

/* The tasks of depth 2 of the chains probe, seeds 1 to 8. */
static int produce_chains(buf *out, const toolset *ts, err *e)
{
    return produce_arm(out, ts, "depth:d2", 8, e);
}

/* One scripted call of the episode probe. */
static int probe_call(buf *out, sim *s, const tool *t, const value *args,
                      err *e)
{
    sim_result r = {.answer = BUF_INIT, .arguments = BUF_INIT, .error = -1, .event = -1};
    int rc = sim_call(s, t->name, strlen(t->name), args, NULL, &r, e);
    if (rc == 0 &&
        (buf_append(out, r.answer.data, r.answer.len) < 0 ||
         buf_printf(out, " %s %d %d %d\n", effect_name(r.effect), r.error,
                    r.step, r.event) < 0))
        rc = err_set(e, ERR_NOMEM, "out of memory");
    buf_free(&r.answer);
    buf_free(&r.arguments);
    return rc;
}

/* Tasks of every arm the probe can build, seeds 1 to 4, each with a
 * scripted episode: the target write too early, each step twice, then a
 * read of the handed value; the answers, effects and the verdict. */
static int produce_tasks(buf *out, const toolset *ts, err *e)
{
    arm arms[ARM_COUNT];
    size_t narms = arm_all(arms);
    const tool *get = toolset_find(ts, "get_order", strlen("get_order"));
    for (uint64_t seed = 1; seed <= 4; seed++)
        for (size_t i = 0; i < narms; i++) {
            if (task_depth(&arms[i]) > 3)
                continue;
            arena *a = arena_new();
            task *t = NULL;
            sim *s = NULL;
            value *v = NULL;
            int rc = a ? 0 : err_set(e, ERR_NOMEM, "out of memory");
            if (rc == 0)
                rc = task_make(&t, a, ts, seed, &arms[i], e);
            if (rc == 0 && !(v = task_to_value(a, t, GENERATOR_VERSION)))
                rc = err_set(e, ERR_NOMEM, "out of memory");
            if (rc == 0)
                rc = put_value(out, v, e);
            if (rc == 0)
                rc = sim_new(&s, ts, t, e);
            const task_step *last = t ? &t->steps[t->depth - 1] : NULL;
            if (rc == 0)
                rc = probe_call(out, s, last->tool, last->args, e);
            for (int k = 0; k < (t ? t->depth : 0) && rc == 0; k++)
                for (int twice = 0; twice < 2 && rc == 0; twice++)
                    rc = probe_call(out, s, t->steps[k].tool,
                                    t->steps[k].args, e);
            if (rc == 0 && t->handed) {
                value *q = vb_object(a);
                if (vb_put(a, q, "order_id", t->handed) < 0)
                    rc = err_set(e, ERR_NOMEM, "out of memory");
                else
                    rc = probe_call(out, s, get, q, e);
            }
            if (rc == 0) {
                sim_verdict verdict;
                sim_judge(s, &verdict);
                value *jv = sim_verdict_value(a, t, &verdict);
                rc = jv ? put_value(out, jv, e)
                        : err_set(e, ERR_NOMEM, "out of memory");
            }
            sim_free(s);
            arena_free(a);
            if (rc < 0)
                return -1;
        }
    return 0;
}

/* Reads the probe text as a tool file and appends what fn makes of it. */
static int run_probe(buf *out, const char *text, size_t len,
                     int (*fn)(buf *, const toolset *, err *), err *e)
{
    doc *d = NULL;
    toolset *ts = NULL;
    int rc = doc_parse(&d, text, len, e);
    if (rc == 0)
        rc = toolset_build(&ts, d, e);
    if (rc == 0)
        rc = fn(out, ts, e);
    toolset_free(ts);
    doc_free(d);
    return rc;
}

int generator_fingerprint(char hex[SHA256_HEX_LEN + 1], err *e)
{
    buf out = BUF_INIT;
    int rc = run_probe(&out, probe, sizeof probe - 1, produce, e);
    if (rc == 0)
        rc = run_probe(&out, shop, sizeof shop - 1, produce_tasks, e);
    if (rc == 0)
        rc = run_probe(&out, chains, sizeof chains - 1, produce_chains, e);
    if (rc == 0)
        rc = run_probe(&out, dated, sizeof dated - 1, produce_dated, e);
    if (rc == 0 && sha256_hex(hex, out.data, out.len) < 0)
        rc = err_set(e, ERR_NOMEM, "SHA-256 is not available from OpenSSL");
    buf_free(&out);
    return rc;
}
