-- taskreplay results database, schema version 9.
--
-- `replay` creates it (results.db by default) and fills it from a night's
-- transcripts; `card` reads it; so can you:  sqlite3 results.db
-- Every table is STRICT (SQLite 3.37+).  Booleans are 0/1 integers, JSON
-- values are canonical JSON text (keys sorted, no spaces), usable with
-- SQLite's json_extract().  sql/examples.sql holds queries to start from.
-- The REFERENCES clauses document how tables join; replay keeps them true
-- itself (foreign key enforcement is left off, for speed).
--
-- Query the views episodes, calls, dial_outcomes and tasks (and the
-- summaries at the end): they have the columns that schema version 1's
-- tables of those names had, and keep them.  Filtered by run (WHERE run
-- = 'NAME'), every view but pass_hat_k reads that run's rows alone, by
-- index, however many runs the database holds; pass_hat_k, a recursive
-- query, computes every run's before the filter applies (on a large
-- database, feed its formula from trials WHERE run = 'NAME', as
-- sql/examples.sql shows).  The tables under them
-- (episode_rows, call_rows, outcome_rows, task_rows) are laid out for
-- loading a night fast: integer keys given in the order rows are written,
-- and child rows keyed by them.
--
-- Figures that only a replay against a task can give (a replayed answer,
-- an effect, reached, pass...) are NULL, never 0, where there was nothing
-- to judge: for a call, NULL diverged means that no answer was logged;
-- for an episode, that none of its calls had one (nothing was compared).

-- What wrote this database.  schema_version is checked on every open: an
-- older version is migrated (in one transaction; replay and card say
-- so), a newer one refused.
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;

-- One row per tool file content seen (a reformatted file is another row
-- with the same contract_sha256).
CREATE TABLE IF NOT EXISTS tool_files (
    file_id         INTEGER PRIMARY KEY,
    file_sha256     TEXT NOT NULL UNIQUE, -- SHA-256 of the bytes: tasks come from it
    contract_sha256 TEXT NOT NULL,     -- SHA-256 of the canonical contract
    format          TEXT NOT NULL,     -- 'openai', 'mcp' or 'openapi'
    path            TEXT NOT NULL,     -- where it was first read from
    tools           INTEGER NOT NULL,  -- tools in its table
    refused         INTEGER NOT NULL,  -- tools refused
    contract        TEXT NOT NULL      -- the canonical JSON the contract hash is taken of
) STRICT;

-- One row per run: episodes of one model on one tool file.
CREATE TABLE IF NOT EXISTS runs (
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

-- One row per task: made from (file, seed, arm), or handed in by the
-- transcript's episode line.  The task's JSON, as `replay tasks` prints
-- it, is the tasks view's `task` column, put together from these.
CREATE TABLE IF NOT EXISTS task_rows (
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

-- One row per episode, with its verdicts.  An observed episode (one that
-- ran against something other than the simulator: no seed, no arm) has
-- NULL in every figure that needs a task.
CREATE TABLE IF NOT EXISTS episode_rows (
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
    source_line      INTEGER NOT NULL,
    -- What the episode used, as its log gives it (the end line's
    -- input_tokens, output_tokens, cost and duration); NULL where the log
    -- is silent, never 0.  Tokens are the model's, summed over its calls;
    -- cost in US dollars; duration in seconds (docs/logs.md says what
    -- each harness's figure is).
    input_tokens     INTEGER,
    output_tokens    INTEGER,
    cost             REAL,
    duration         REAL
) STRICT;

-- One row per call, in the episode's order.
CREATE TABLE IF NOT EXISTS call_rows (
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
    error         TEXT,              -- its error code, or NULL; observed:
                                     -- the logged answer's, when it is an
                                     -- error (docs/card.md, "Errors in
                                     -- logged answers": the logged code,
                                     -- is_error, http_404, error_text...)
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
    duration      REAL,              -- seconds the tool took, as logged (the
                                     -- call line's duration), or NULL
    PRIMARY KEY (episode_id, seq)
) STRICT, WITHOUT ROWID;

-- One row per planned dial event of an episode.
CREATE TABLE IF NOT EXISTS outcome_rows (
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

-- Every input line that could not be used, and every record of another
-- harness's log that replay --from could not use whole (docs/logs.md).
CREATE TABLE IF NOT EXISTS problems (
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

-- Lookups by name.  replay loads a night into a new database without
-- the first two and makes them when the night is in: an index kept up
-- row by row costs more than the rows.
CREATE UNIQUE INDEX IF NOT EXISTS episode_rows_by_name
    ON episode_rows(run_id, episode);
CREATE UNIQUE INDEX IF NOT EXISTS task_rows_by_id ON task_rows(task_id);
CREATE INDEX IF NOT EXISTS problems_by_run ON problems(run);

-- The episodes, by run name.
CREATE VIEW IF NOT EXISTS episodes AS
SELECT r.run, e.episode, e.seed, e.arm, e.knob, e.level, e.task_id,
       e.calls, e.reached, e.pass, e.side_effects, e.duplicate_writes,
       e.errors, e.err_not_found, e.err_invalid_arguments, e.err_not_ready,
       e.err_unavailable, e.err_timeout, e.err_rate_limited, e.unfinished,
       e.diverged, e.status, e.final, e.content_xxh3, e.source_file,
       e.source_line, e.task_name, e.success, e.reward, e.episode_id,
       e.run_id, e.input_tokens, e.output_tokens, e.cost, e.duration
FROM episode_rows e JOIN runs r ON r.run_id = e.run_id;

-- The calls, by run and episode name.
CREATE VIEW IF NOT EXISTS calls AS
SELECT r.run, e.episode, c.seq, c.step, c.tool, c.kind, c.arguments,
       c.answer, c.error, c.effect, c.dial, c.diverged, c.logged_answer,
       coalesce(c.source_file, e.source_file) AS source_file,
       c.source_line, c.arguments_raw, c.arguments_valid,
       c.arguments_rule, c.answer_valid, c.episode_id, c.duration
FROM call_rows c
JOIN episode_rows e ON e.episode_id = c.episode_id
JOIN runs r ON r.run_id = e.run_id;

-- The dial outcomes, by run and episode name.
CREATE VIEW IF NOT EXISTS dial_outcomes AS
SELECT r.run, e.episode, o.event, o.dial, o.step, o.seq, o.outcome,
       o.episode_id
FROM outcome_rows o
JOIN episode_rows e ON e.episode_id = o.episode_id
JOIN runs r ON r.run_id = e.run_id;

-- The tasks, with `task` as `replay tasks` prints it (canonical JSON).
CREATE VIEW IF NOT EXISTS tasks AS
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

-- Per run: the figures a card starts from.  Rates of simulator figures
-- are over `simulated` episodes (pass / simulated), the harness's success
-- over `judged` ones; `episodes` counts both kinds.  A simulator figure
-- of a run with no simulated episode is NULL, never 0, and so is
-- diverged_episodes when no episode had an answer logged to compare
-- (compared_episodes says how many had).  tools_path is the tool file as
-- the run line named it, tools_found where it was read when not there.
CREATE VIEW IF NOT EXISTS run_summary AS
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
GROUP BY r.run;

-- Per run and arm (simulator episodes; an observed one has no arm).
CREATE VIEW IF NOT EXISTS arm_summary AS
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
GROUP BY r.run, e.arm;

-- Per run, dial and outcome: how the agent coped with each difficulty.
CREATE VIEW IF NOT EXISTS dial_summary AS
SELECT r.run, o.dial, o.outcome, count(*) AS events
FROM outcome_rows o
JOIN episode_rows e ON e.episode_id = o.episode_id
JOIN runs r ON r.run_id = e.run_id
GROUP BY r.run, o.dial, o.outcome;

-- Per run and task: its trials (episodes of the same task in one run: the
-- same seed and arm, or the same task_name for observed episodes), how
-- many passed, how many the harness judged and called a success, and the
-- first trial's (the first written) pass and success.  measured and
-- passed read the same for both kinds: a simulated task's trials and
-- passes, an observed task's judged trials and successes (so that
-- "SELECT task, passed, measured FROM trials WHERE run = ?" needs no
-- thought about where the verdict came from).
CREATE VIEW IF NOT EXISTS trials AS
SELECT r.run,
       CASE WHEN e.seed IS NULL THEN 'observed' ELSE 'simulated' END AS kind,
       coalesce(e.task_id, e.task_name) AS task, e.arm,
       count(*) AS trials, sum(e.pass) AS passes,
       count(e.success) AS judged, sum(e.success) AS successes,
       min(e.episode_id) AS first_episode, -- SQLite: the columns below are
       e.pass AS first_pass,               -- that episode's
       e.success AS first_success,
       CASE WHEN e.seed IS NULL THEN count(e.success) ELSE count(*) END
           AS measured,
       CASE WHEN e.seed IS NULL THEN coalesce(sum(e.success), 0)
            ELSE sum(e.pass) END AS passed
FROM episode_rows e JOIN runs r ON r.run_id = e.run_id
WHERE coalesce(e.task_id, e.task_name) IS NOT NULL
GROUP BY r.run, kind, task;

-- Per run, kind and k: pass^k (for observed episodes, success^k), the
-- chance that k trials of a task, drawn from its own, all pass: per task
-- C(c, k) / C(n, k) (n trials, c passed; for observed episodes n judged,
-- c successes), averaged over the `tasks` with n >= k.
CREATE VIEW IF NOT EXISTS pass_hat_k AS
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

-- Per run and kind: the run's rate (pass of its simulated episodes, the
-- harness's success of its observed ones), as the card gives it, with its
-- 95% interval: Wilson's over the episodes when each task has one trial;
-- when some task has several, clustered by task (an episode with no task
-- name is a task alone), since a task's trials are not independent: the
-- clustered variance V = m/(m-1) * sum((x_i - p n_i)^2) / n^2 of p = x/n
-- (m tasks, task i passing x_i of n_i) gives an effective sample size
-- p(1-p)/V, at most n (m when p is 0 or 1; n when V is 0), at which
-- Wilson's interval is taken; with one task of several trials, 0 to 1
-- (nothing is known of other tasks).  docs/card.md, "Intervals".
-- Uses sqrt(), one of SQLite's math functions (3.35 and later, built in
-- by default; Debian's sqlite3 has them).
CREATE VIEW IF NOT EXISTS run_interval AS
WITH j AS ( -- per run and kind, its tasks' sums (grouped, so that a filter
            -- by run reaches the index)
    SELECT r.run, k.kind, k.measure,
           (SELECT json_array(count(*), sum(n), sum(x), max(n), sum(x * x),
                              sum(x * n), sum(n * n))
            FROM (SELECT CASE k.kind WHEN 'observed' THEN count(e.success)
                         ELSE count(*) END AS n,
                         CASE k.kind WHEN 'observed'
                         THEN coalesce(sum(e.success), 0)
                         ELSE coalesce(sum(e.pass), 0) END AS x
                  FROM episode_rows e
                  WHERE e.run_id = r.run_id
                    AND (e.seed IS NULL) = (k.kind = 'observed')
                  GROUP BY coalesce(e.task_id, e.task_name, e.episode_id))
            WHERE n > 0) AS sums
    FROM runs r,
         (SELECT 'simulated' AS kind, 'pass' AS measure
          UNION ALL SELECT 'observed', 'success') k
    GROUP BY r.run, k.kind)
SELECT run, kind, measure, passed, measured, rate, tasks, most_trials,
       CASE WHEN most_trials = 1 THEN 'wilson' ELSE 'clustered_by_task' END
           AS ci_method,
       n_eff AS effective_n,
       CASE WHEN n_eff IS NULL OR rate = 0 THEN 0.0
            ELSE max(0.0, (rate + 1.920729410347062 / n_eff -
                 1.959963984540054 * sqrt(rate * (1 - rate) / n_eff +
                 0.9603647051735314 / (n_eff * n_eff))) /
                 (1 + 3.841458820694124 / n_eff)) END AS ci_low,
       CASE WHEN n_eff IS NULL OR rate = 1 THEN 1.0
            ELSE min(1.0, (rate + 1.920729410347062 / n_eff +
                 1.959963984540054 * sqrt(rate * (1 - rate) / n_eff +
                 0.9603647051735314 / (n_eff * n_eff))) /
                 (1 + 3.841458820694124 / n_eff)) END AS ci_high
FROM (
    SELECT *, CASE
        WHEN most_trials = 1 THEN measured      -- Wilson's
        WHEN tasks < 2 THEN NULL                -- nothing known: 0 to 1
        WHEN rate = 0 OR rate = 1 THEN tasks
        WHEN v <= 0 THEN measured
        ELSE min(measured, rate * (1 - rate) / v) END AS n_eff
    FROM (
        SELECT *, 1.0 * passed / measured AS rate,
               1.0 * tasks / (tasks - 1) *
               (xx - 2.0 * passed / measured * xn +
                1.0 * passed / measured * passed / measured * nn) /
               (1.0 * measured * measured) AS v
        FROM (
            SELECT run, kind, measure, sums ->> 0 AS tasks,
                   sums ->> 1 AS measured, sums ->> 2 AS passed,
                   sums ->> 3 AS most_trials, sums ->> 4 AS xx,
                   sums ->> 5 AS xn, sums ->> 6 AS nn
            FROM j
            WHERE sums ->> 0 > 0)));

-- Why each episode ended as it did: one class per episode, the first of
-- these that holds (docs/card.md shows an episode of each).
--   passed               it passed (observed: the harness said success)
--   diverged             a logged answer differs from the simulator's, so
--                        the agent saw other answers than the replay gives
--                        (seq: the first such call)
--   fooled               bad data's wrong value was used by a write
--                        (dial baddata; step: the read that lied; seq: the
--                        first side effect)
--   duplicated           a write repeated after a landed timeout or a
--                        lagging read (dial landed or lagged; seq: the
--                        duplicate write)
--   duplicate_write      the expected write made twice (seq: the second)
--   side_effect          a write the task did not ask for (seq: the first)
--   gave_up              no retry after a planned fault, timeout or rate
--                        limit (dial; seq: the call that answered it)
--   stalled              given bad data, it never wrote (dial baddata)
--   unfinished           no end line: the log stops inside the episode
--   invalid_arguments    its last call broke the tool's input schema
--   unknown_tool         its last call named a tool the file has not
--   stopped_after_error  its last call answered another error (error:
--                        not_ready, when a step came before its turn)
--   not_reached          it stopped with no error before a write step
--                        (step and tool: the first write step not done)
--   failed               observed: the harness said failure (seq: the
--                        last call that answered an error or broke its
--                        input schema, if one did)
--   unjudged             observed: the harness gave no verdict
-- seq is the call the class points at (NULL: none), step the task step
-- (the call's, the dial event's, or the one missed), tool and error the
-- call's (for not_reached, the missed step's tool).  dial is set for
-- fooled, duplicated, gave_up and stalled.  Filtered by run (WHERE run =
-- ?) it reads that run's episodes only.
CREATE VIEW IF NOT EXISTS episode_outcomes AS
SELECT r.run, y.episode, y.class, y.seq,
       coalesce(y.step, (SELECT c.step FROM call_rows c
                         WHERE c.episode_id = y.episode_id AND c.seq = y.seq))
           AS step,
       CASE WHEN y.class = 'not_reached' THEN
           (SELECT json_extract(t.steps, '$[' || (y.step - 1) || '].tool')
            FROM task_rows t WHERE t.task_id = y.task_id)
       ELSE (SELECT c.tool FROM call_rows c
             WHERE c.episode_id = y.episode_id AND c.seq = y.seq) END AS tool,
       (SELECT coalesce(c.error, CASE WHEN c.arguments_valid = 0
                                      THEN 'invalid_arguments' END)
        FROM call_rows c
        WHERE c.episode_id = y.episode_id AND c.seq = y.seq) AS error,
       y.dial, y.task, y.arm, y.episode_id, y.run_id
FROM (
    SELECT x.*,
        CASE
        WHEN x.class = 'diverged' THEN
            (SELECT min(c.seq) FROM call_rows c
             WHERE c.episode_id = x.episode_id AND c.diverged = 1)
        WHEN x.class IN ('fooled', 'duplicate_write', 'side_effect') THEN
            (SELECT min(c.seq) FROM call_rows c
             WHERE c.episode_id = x.episode_id AND c.effect =
                 CASE x.class WHEN 'duplicate_write' THEN 'duplicate_write'
                 ELSE 'side_effect' END)
        WHEN x.class = 'duplicated' THEN
            (SELECT min(c.seq) FROM call_rows c
             WHERE c.episode_id = x.episode_id
               AND c.effect = 'duplicate_write')
        WHEN x.class IN ('gave_up', 'stalled') THEN
            (SELECT o.seq FROM outcome_rows o
             WHERE o.episode_id = x.episode_id AND o.outcome = x.class
             ORDER BY o.event LIMIT 1)
        WHEN x.class IN ('invalid_arguments', 'unknown_tool',
                         'stopped_after_error') THEN
            (SELECT max(c.seq) FROM call_rows c
             WHERE c.episode_id = x.episode_id)
        WHEN x.class = 'failed' THEN
            (SELECT max(c.seq) FROM call_rows c
             WHERE c.episode_id = x.episode_id
               AND (c.error IS NOT NULL OR c.arguments_valid = 0))
        END AS seq,
        CASE
        WHEN x.class IN ('fooled', 'duplicated', 'gave_up', 'stalled') THEN
            (SELECT o.step FROM outcome_rows o
             WHERE o.episode_id = x.episode_id AND o.outcome = x.class
             ORDER BY o.event LIMIT 1)
        WHEN x.class = 'not_reached' THEN
            (SELECT min(json_extract(j.value, '$.step'))
             FROM task_rows t, json_each(t.steps) j
             WHERE t.task_id = x.task_id
               AND json_extract(j.value, '$.kind') = 'write'
               AND NOT EXISTS (SELECT 1 FROM call_rows c
                   WHERE c.episode_id = x.episode_id
                     AND c.step = json_extract(j.value, '$.step')
                     AND c.effect = 'expected_write'))
        END AS step,
        CASE WHEN x.class IN ('fooled', 'duplicated', 'gave_up', 'stalled')
        THEN (SELECT o.dial FROM outcome_rows o
              WHERE o.episode_id = x.episode_id AND o.outcome = x.class
              ORDER BY o.event LIMIT 1)
        END AS dial
    FROM (
        SELECT e.episode_id, e.run_id, e.episode, e.arm, e.task_id,
               coalesce(e.task_id, e.task_name) AS task,
               CASE
               WHEN e.seed IS NULL THEN
                   CASE WHEN e.success = 1 THEN 'passed'
                        WHEN e.success = 0 THEN 'failed'
                        WHEN e.unfinished THEN 'unfinished'
                        ELSE 'unjudged' END
               WHEN e.pass THEN 'passed'
               WHEN e.diverged > 0 THEN 'diverged'
               WHEN EXISTS (SELECT 1 FROM outcome_rows o
                            WHERE o.episode_id = e.episode_id
                              AND o.outcome = 'fooled') THEN 'fooled'
               WHEN EXISTS (SELECT 1 FROM outcome_rows o
                            WHERE o.episode_id = e.episode_id
                              AND o.outcome = 'duplicated') THEN 'duplicated'
               WHEN e.duplicate_writes > 0 THEN 'duplicate_write'
               WHEN e.side_effects > 0 THEN 'side_effect'
               WHEN EXISTS (SELECT 1 FROM outcome_rows o
                            WHERE o.episode_id = e.episode_id
                              AND o.outcome = 'gave_up') THEN 'gave_up'
               WHEN EXISTS (SELECT 1 FROM outcome_rows o
                            WHERE o.episode_id = e.episode_id
                              AND o.outcome = 'stalled') THEN 'stalled'
               WHEN e.unfinished THEN 'unfinished'
               ELSE coalesce((SELECT CASE WHEN c.error IS NULL THEN NULL
                                     WHEN c.error = 'invalid_arguments'
                                         THEN 'invalid_arguments'
                                     WHEN c.error = 'not_found'
                                         THEN 'unknown_tool'
                                     ELSE 'stopped_after_error' END
                              FROM call_rows c
                              WHERE c.episode_id = e.episode_id
                              ORDER BY c.seq DESC LIMIT 1), 'not_reached')
               END AS class
        FROM episode_rows e) x) y
JOIN runs r ON r.run_id = y.run_id;
