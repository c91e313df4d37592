PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;
INSERT INTO meta VALUES('schema_version','5');
CREATE TABLE tool_files (
    file_id         INTEGER PRIMARY KEY,
    file_sha256     TEXT NOT NULL UNIQUE, -- SHA-256 of the bytes: tasks come from it
    contract_sha256 TEXT NOT NULL,     -- SHA-256 of the canonical contract
    format          TEXT NOT NULL,     -- 'openai', 'mcp' or 'openapi'
    path            TEXT NOT NULL,     -- where it was first read from
    tools           INTEGER NOT NULL,  -- tools in its table
    refused         INTEGER NOT NULL,  -- tools refused
    contract        TEXT NOT NULL      -- the canonical JSON the contract hash is taken of
) STRICT;
INSERT INTO tool_files VALUES(1,'4acacf4693dbcbc81c0cc9e98ed4d2e017a2189edcfa89e0fba05e7433e4fd54','cf8af7f03f9931e506b7ba9a67ad16386c55be943bc2eb31e1f97e1d0b659157','openai','../tools/shop.json',5,0,'[{"function":{"description":"Look up one order by its id.","name":"get_order","parameters":{"properties":{"order_id":{"description":"The order''s id, six characters such as A-3317.","maxLength":6,"minLength":6,"type":"string"}},"required":["order_id"],"type":"object"}},"type":"function"},{"function":{"description":"Find orders whose notes match some words.","name":"search_orders","parameters":{"properties":{"query":{"description":"Words to look for in the order notes.","type":"string"}},"type":"object"}},"type":"function"},{"function":{"description":"Refund part or all of an order.","name":"refund_order","parameters":{"properties":{"amount":{"description":"The amount to refund, in dollars.","minimum":0,"type":"number"},"order_id":{"description":"The order''s id, six characters such as A-3317.","maxLength":6,"minLength":6,"type":"string"},"reason":{"description":"Why the order is refunded.","enum":["damaged","late","other"],"type":"string"}},"required":["order_id","amount"],"type":"object"}},"type":"function"},{"function":{"description":"Send the customer a note about an order.","name":"notify_customer","parameters":{"properties":{"channel":{"enum":["email","sms"],"type":"string"},"order_id":{"maxLength":6,"minLength":6,"type":"string"}},"required":["order_id","channel"],"type":"object"}},"type":"function"},{"function":{"description":"List the channels a note can go out on.","name":"list_channels","parameters":{"properties":{},"type":"object"}},"type":"function"}]');
CREATE TABLE runs (
    run_id                INTEGER PRIMARY KEY,
    run                   TEXT NOT NULL UNIQUE,
    model                 TEXT,             -- the run line's "model", if any
    meta                  TEXT,             -- the run line's "meta", as JSON
    file_sha256           TEXT NOT NULL REFERENCES tool_files(file_sha256),
    tools_path            TEXT NOT NULL,    -- as the run line named it
    generator_version     INTEGER NOT NULL, -- what made the tasks and answers
    generator_fingerprint TEXT NOT NULL,
    replayed_at           TEXT NOT NULL,    -- UTC, ISO 8601; SOURCE_DATE_EPOCH when set
    tools_found           TEXT              -- where replay read the tool file when it was
                                            -- not where the run line says (found in a
                                            -- --tools-dir or TASKREPLAY_TOOLS_DIR folder):
                                            -- resolved, from the working folder when under
                                            -- it, else absolute; NULL: it was there
) STRICT;
INSERT INTO runs VALUES(1,'beside',NULL,NULL,'4acacf4693dbcbc81c0cc9e98ed4d2e017a2189edcfa89e0fba05e7433e4fd54','../tools/shop.json',4,'dc841fa62b712dbae353e4ff6d036a346cd56bcc50be390b405300ec1567e4f6','2026-12-06T00:00:00Z',NULL);
INSERT INTO runs VALUES(2,'moved','m',NULL,'4acacf4693dbcbc81c0cc9e98ed4d2e017a2189edcfa89e0fba05e7433e4fd54','shop.json',4,'dc841fa62b712dbae353e4ff6d036a346cd56bcc50be390b405300ec1567e4f6','2026-12-06T00:00:00Z','tools/shop.json');
CREATE TABLE task_rows (
    task_key  INTEGER PRIMARY KEY,
    task_id   TEXT NOT NULL,
    file_id   INTEGER NOT NULL REFERENCES tool_files(file_id),
    seed      INTEGER NOT NULL,
    arm       TEXT NOT NULL,
    depth     INTEGER NOT NULL,
    generator INTEGER NOT NULL,  -- the generator version that made it
    request   TEXT NOT NULL,
    steps     TEXT NOT NULL,     -- JSON: the chain
    events    TEXT NOT NULL,     -- JSON: the planned dial events
    baddata   TEXT               -- JSON: the bad data arm's wrong value, or NULL
) STRICT;
INSERT INTO task_rows VALUES(1,'t-6fc4c00a1b2f8e8b',1,7,'base',2,4,'Goal: refund_order (Refund part or all of an order). First call search_orders with query "harbor granite"; the "id" field of its answer holds the order_id you are not given. Last, call refund_order with order_id set to the value that answer gave and amount 280.41.','[{"arguments":{"query":"harbor granite"},"hands":{"argument":"order_id","field":"id","value":"Z-0362"},"kind":"read","step":1,"tool":"search_orders"},{"arguments":{"amount":280.41,"order_id":"Z-0362"},"handed":{"argument":"order_id","field":"id","from_step":1},"kind":"write","step":2,"tool":"refund_order"}]','[]',NULL);
CREATE TABLE episode_rows (
    episode_id       INTEGER PRIMARY KEY,  -- in the order written
    run_id           INTEGER NOT NULL REFERENCES runs(run_id),
    episode          TEXT NOT NULL,
    seed             INTEGER,           -- NULL: observed
    arm              TEXT,              -- 'base', 'depth:d3', 'landed:l1'...
    knob             TEXT,              -- 'base', 'depth', 'faults', ...
    level            INTEGER,           -- 0 for base
    task_id          TEXT,              -- the task replayed (task_rows.task_id)
    task_name        TEXT,              -- the harness's name of the task attempted
    calls            INTEGER NOT NULL,
    reached          INTEGER,           -- every write step done
    pass             INTEGER,           -- reached, no side effect, no duplicate write,
                                        -- and finished (an unfinished episode never passes)
    side_effects     INTEGER,           -- duplicate writes included
    duplicate_writes INTEGER,
    errors           INTEGER,           -- all error answers; by code below
    err_not_found         INTEGER,
    err_invalid_arguments INTEGER,
    err_not_ready         INTEGER,
    err_unavailable       INTEGER,
    err_timeout           INTEGER,
    err_rate_limited      INTEGER,
    unfinished       INTEGER NOT NULL,  -- no end line
    diverged         INTEGER,           -- calls whose logged answer differs from the replay
                                        -- (of those with one logged); NULL when no call
                                        -- had an answer logged: nothing was compared
                                        -- (and for an observed episode: nothing replayed)
    success          INTEGER,           -- the end line's "success" (the harness's verdict)
    reward           REAL,              -- the end line's "reward"
    status           TEXT,              -- the end line's "status"
    final            TEXT,              -- the end line's "final"
    content_xxh3     TEXT NOT NULL,     -- XXH3-64 of the episode's lines: unchanged => skipped
    source_file      TEXT NOT NULL,     -- the episode line's file and line
    source_line      INTEGER NOT NULL
) STRICT;
INSERT INTO episode_rows VALUES(1,1,'b1',7,'base','base',0,'t-6fc4c00a1b2f8e8b',NULL,1,0,0,0,0,0,0,0,0,0,0,0,0,1,NULL,NULL,NULL,NULL,'6f34cf0ab36c4fa3','night/beside.jsonl',2);
INSERT INTO episode_rows VALUES(2,1,'o1',NULL,NULL,NULL,NULL,NULL,NULL,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,NULL,1,NULL,NULL,NULL,'eccc4e776bf34682','night/beside.jsonl',5);
INSERT INTO episode_rows VALUES(3,2,'m1',7,'base','base',0,'t-6fc4c00a1b2f8e8b',NULL,1,0,0,0,0,0,0,0,0,0,0,0,0,NULL,NULL,NULL,NULL,NULL,'08cf405b14870628','night/moved.jsonl',2);
CREATE TABLE call_rows (
    episode_id    INTEGER NOT NULL REFERENCES episode_rows(episode_id),
    seq           INTEGER NOT NULL,  -- 1, 2, ... within the episode
    step          INTEGER,           -- the task step the call matched, or NULL
    tool          TEXT NOT NULL,     -- as called (may name no tool)
    kind          TEXT,              -- 'read', 'write', NULL for an unknown tool
    arguments     TEXT,              -- canonical JSON (for an unknown tool too);
                                     -- NULL when what was sent is not JSON
    arguments_raw TEXT,              -- what was sent, when it is not JSON
    arguments_valid INTEGER,         -- valid against the tool's input schema;
                                     -- NULL for an unknown tool, or when the
                                     -- check could not decide (past its limits)
    arguments_rule TEXT,             -- the rule they break, or NULL (why a
                                     -- check could not decide: the answer's
                                     -- message, or the problem row)
    answer        TEXT,              -- the replayed answer, JSON (NULL: observed)
    error         TEXT,              -- its error code, or NULL
    effect        TEXT,              -- 'read', 'expected_write', 'side_effect',
                                     -- 'duplicate_write', 'refused' (NULL: observed)
    dial          TEXT,              -- the dial whose event the call fired, or NULL
    diverged      INTEGER,           -- 1 when the logged answer differs from the
                                     -- replayed one, 0 when it is the same, NULL
                                     -- when no answer was logged (or observed:
                                     -- nothing was replayed to compare it with)
    logged_answer TEXT,              -- that answer, when it differs (or observed)
    answer_valid  INTEGER,           -- the logged answer fits the tool's output
                                     -- schema; NULL: no answer or no schema
    source_file   TEXT,              -- NULL: the episode line's file
    source_line   INTEGER NOT NULL,
    PRIMARY KEY (episode_id, seq)
) STRICT, WITHOUT ROWID;
INSERT INTO call_rows VALUES(1,1,NULL,'search_orders','read','{"query":"x"}',NULL,1,NULL,'{"id":"Z-7466","ok":true}',NULL,'read',NULL,1,'{"id":"X-0000","ok":true}',NULL,NULL,3);
INSERT INTO call_rows VALUES(3,1,NULL,'search_orders','read','{"query":"x"}',NULL,1,NULL,'{"id":"Z-7466","ok":true}',NULL,'read',NULL,NULL,NULL,NULL,NULL,3);
CREATE TABLE outcome_rows (
    episode_id INTEGER NOT NULL REFERENCES episode_rows(episode_id),
    event    INTEGER NOT NULL,   -- 1, 2, ... in the task's order
    dial     TEXT NOT NULL,      -- 'faults', 'timeouts', 'ratelimits', 'landed',
                                 -- 'baddata', 'lagged'
    step     INTEGER NOT NULL,
    seq      INTEGER,            -- the call that fired it; NULL: never fired
    outcome  TEXT NOT NULL,      -- 'retried', 'gave_up', 'checked', 'duplicated',
                                 -- 'left', 'caught', 'fooled', 'stalled',
                                 -- 'trusted', 'not_reached'
    PRIMARY KEY (episode_id, event)
) STRICT, WITHOUT ROWID;
CREATE TABLE problems (
    source_file TEXT NOT NULL,       -- the file, however its path was spelled:
                                     -- from the database's folder when under
                                     -- it, else absolute; '<stdin>'
    source_line INTEGER NOT NULL,    -- the line; for a log's own problem
                                     -- (place not NULL): -1, -2... in the
                                     -- order they were found
    run         TEXT,            -- when the line (or the record) named one
    episode     TEXT,
    message     TEXT NOT NULL,
    line        TEXT NOT NULL,   -- the line itself (its first 4096 bytes);
                                 -- '' for a log's own problem
    place       TEXT,            -- a log's own problem: where in the log (a
                                 -- zip member, a line, a span; a JSON path)
    PRIMARY KEY (source_file, source_line)
) STRICT;
INSERT INTO problems VALUES('night/beside.jsonl',7,NULL,NULL,'not JSON: the text ends early; expected '','' or ''}'' after a member (column 29)','{"type":"end","run":"beside"',NULL);
CREATE INDEX problems_by_run ON problems(run);
CREATE VIEW episodes AS
SELECT r.run, e.episode, e.seed, e.arm, e.knob, e.level, e.task_id,
       e.calls, e.reached, e.pass, e.side_effects, e.duplicate_writes,
       e.errors, e.err_not_found, e.err_invalid_arguments, e.err_not_ready,
       e.err_unavailable, e.err_timeout, e.err_rate_limited, e.unfinished,
       e.diverged, e.status, e.final, e.content_xxh3, e.source_file,
       e.source_line, e.task_name, e.success, e.reward, e.episode_id,
       e.run_id
FROM episode_rows e JOIN runs r ON r.run_id = e.run_id;
CREATE VIEW calls AS
SELECT r.run, e.episode, c.seq, c.step, c.tool, c.kind, c.arguments,
       c.answer, c.error, c.effect, c.dial, c.diverged, c.logged_answer,
       coalesce(c.source_file, e.source_file) AS source_file,
       c.source_line, c.arguments_raw, c.arguments_valid,
       c.arguments_rule, c.answer_valid, c.episode_id
FROM call_rows c
JOIN episode_rows e ON e.episode_id = c.episode_id
JOIN runs r ON r.run_id = e.run_id;
CREATE VIEW dial_outcomes AS
SELECT r.run, e.episode, o.event, o.dial, o.step, o.seq, o.outcome,
       o.episode_id
FROM outcome_rows o
JOIN episode_rows e ON e.episode_id = o.episode_id
JOIN runs r ON r.run_id = e.run_id;
CREATE VIEW tasks AS
SELECT t.task_id, f.file_sha256, t.seed, t.arm, t.depth, t.request,
       CASE WHEN t.baddata IS NULL THEN
           json_object('arm', t.arm, 'depth', t.depth,
                       'events', json(t.events),
                       'file_sha256', f.file_sha256,
                       'generator', t.generator, 'id', t.task_id,
                       'request', t.request, 'seed', t.seed,
                       'steps', json(t.steps), 'target', t.depth)
       ELSE
           json_object('arm', t.arm, 'baddata', json(t.baddata),
                       'depth', t.depth, 'events', json(t.events),
                       'file_sha256', f.file_sha256,
                       'generator', t.generator, 'id', t.task_id,
                       'request', t.request, 'seed', t.seed,
                       'steps', json(t.steps), 'target', t.depth)
       END AS task,
       t.generator, t.task_key
FROM task_rows t JOIN tool_files f ON f.file_id = t.file_id;
CREATE VIEW run_summary AS
SELECT r.run, r.model, r.tools_path, r.file_sha256, t.contract_sha256,
       r.generator_version, r.generator_fingerprint, r.replayed_at,
       count(e.episode_id)               AS episodes,
       sum(e.reached)                    AS reached,
       sum(e.pass)                       AS pass,
       sum(e.side_effects)               AS side_effects,
       sum(e.duplicate_writes)           AS duplicate_writes,
       sum(e.errors)                     AS errors,
       coalesce(sum(e.unfinished), 0)    AS unfinished,
       sum(e.diverged > 0)               AS diverged_episodes,
       count(e.diverged)                 AS compared_episodes,
       (SELECT count(*) FROM problems p WHERE p.run = r.run) AS problems,
       count(e.seed)                     AS simulated, -- replayed against tasks
       count(e.episode_id) - count(e.seed) AS observed,
       count(e.success)                  AS judged,   -- with the harness's success
       coalesce(sum(e.success), 0)       AS successes,
       count(e.reward)                   AS rewarded, -- with the harness's reward
       avg(e.reward)                     AS mean_reward,
       r.tools_found
FROM runs r
JOIN tool_files t ON t.file_sha256 = r.file_sha256
LEFT JOIN episode_rows e ON e.run_id = r.run_id
GROUP BY r.run_id
;
CREATE VIEW arm_summary AS
SELECT r.run, e.arm, e.knob, e.level,
       count(*)                AS episodes,
       sum(e.reached)          AS reached,
       sum(e.pass)             AS pass,
       sum(e.side_effects)     AS side_effects,
       sum(e.duplicate_writes) AS duplicate_writes,
       sum(e.errors)           AS errors,
       sum(e.unfinished)       AS unfinished
FROM episode_rows e JOIN runs r ON r.run_id = e.run_id
WHERE e.arm IS NOT NULL
GROUP BY e.run_id, e.arm;
CREATE VIEW dial_summary AS
SELECT r.run, o.dial, o.outcome, count(*) AS events
FROM outcome_rows o
JOIN episode_rows e ON e.episode_id = o.episode_id
JOIN runs r ON r.run_id = e.run_id
GROUP BY e.run_id, o.dial, o.outcome;
CREATE VIEW trials AS
SELECT r.run,
       CASE WHEN e.seed IS NULL THEN 'observed' ELSE 'simulated' END AS kind,
       coalesce(e.task_id, e.task_name) AS task, e.arm,
       count(*) AS trials, sum(e.pass) AS passes,
       count(e.success) AS judged, sum(e.success) AS successes,
       min(e.episode_id) AS first_episode, -- SQLite: the columns below are
       e.pass AS first_pass,               -- that episode's
       e.success AS first_success
FROM episode_rows e JOIN runs r ON r.run_id = e.run_id
WHERE coalesce(e.task_id, e.task_name) IS NOT NULL
GROUP BY e.run_id, kind, task
;
CREATE VIEW pass_hat_k AS
WITH RECURSIVE t(run, kind, n, c) AS (
    SELECT run, kind,
           CASE kind WHEN 'simulated' THEN trials ELSE judged END,
           CASE kind WHEN 'simulated' THEN passes ELSE coalesce(successes, 0) END
    FROM trials),
p(run, kind, n, c, k, r) AS (
    SELECT run, kind, n, c, 1, 1.0 * c / n FROM t WHERE n >= 1
    UNION ALL
    SELECT run, kind, n, c, k + 1, r * (c - k) / (n - k) FROM p WHERE k < n)
SELECT run, kind, k, avg(r) AS rate, count(*) AS tasks
FROM p GROUP BY run, kind, k;
CREATE UNIQUE INDEX episode_rows_by_name
    ON episode_rows(run_id, episode);
CREATE UNIQUE INDEX task_rows_by_id ON task_rows(task_id);
COMMIT;
