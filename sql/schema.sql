-- taskreplay results database, schema version 1.
--
-- `replay` creates it (results.db by default) and fills it from a night's
-- transcripts; `card` reads it; so can you:  sqlite3 results.db
-- Every table is STRICT (SQLite 3.37+).  Booleans are 0/1 integers, JSON
-- values are canonical JSON text (keys sorted, no spaces), usable with
-- SQLite's json_extract().  sql/examples.sql holds queries to start from.
-- The REFERENCES clauses document how tables join; replay keeps them true
-- itself (foreign key enforcement is left off, for speed).

-- What wrote this database.  schema_version is checked on every open: an
-- older version is migrated, a newer one refused.
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;

-- One row per tool file content seen (a reformatted file is another row
-- with the same contract_sha256).
CREATE TABLE IF NOT EXISTS tool_files (
    file_sha256     TEXT PRIMARY KEY,  -- SHA-256 of the bytes: tasks come from it
    contract_sha256 TEXT NOT NULL,     -- SHA-256 of the canonical contract
    format          TEXT NOT NULL,     -- 'openai', 'mcp' or 'openapi'
    path            TEXT NOT NULL,     -- where it was first read from
    tools           INTEGER NOT NULL,  -- tools in its table
    refused         INTEGER NOT NULL,  -- tools refused
    contract        TEXT NOT NULL      -- the canonical JSON the contract hash is taken of
) STRICT;

-- One row per run: episodes of one model on one tool file.
CREATE TABLE IF NOT EXISTS runs (
    run                   TEXT PRIMARY KEY,
    model                 TEXT,             -- the run line's "model", if any
    meta                  TEXT,             -- the run line's "meta", as JSON
    file_sha256           TEXT NOT NULL REFERENCES tool_files(file_sha256),
    tools_path            TEXT NOT NULL,    -- as the run line named it
    generator_version     INTEGER NOT NULL, -- what made the tasks and answers
    generator_fingerprint TEXT NOT NULL,
    replayed_at           TEXT NOT NULL     -- UTC, ISO 8601; SOURCE_DATE_EPOCH when set
) STRICT;

-- One row per task: made from (file, seed, arm), or given by the
-- transcript's episode line.
CREATE TABLE IF NOT EXISTS tasks (
    task_id     TEXT PRIMARY KEY,
    file_sha256 TEXT NOT NULL REFERENCES tool_files(file_sha256),
    seed        INTEGER NOT NULL,
    arm         TEXT NOT NULL,
    depth       INTEGER NOT NULL,
    request     TEXT NOT NULL,
    task        TEXT NOT NULL      -- the task as `replay tasks` prints it
) STRICT;

-- One row per episode, with its verdicts.
CREATE TABLE IF NOT EXISTS episodes (
    run              TEXT NOT NULL REFERENCES runs(run),
    episode          TEXT NOT NULL,
    seed             INTEGER NOT NULL,
    arm              TEXT NOT NULL,     -- 'base', 'depth:d3', 'landed:l1'...
    knob             TEXT NOT NULL,     -- 'base', 'depth', 'faults', ...
    level            INTEGER NOT NULL,  -- 0 for base
    task_id          TEXT NOT NULL REFERENCES tasks(task_id),
    calls            INTEGER NOT NULL,
    reached          INTEGER NOT NULL,  -- every write step done
    pass             INTEGER NOT NULL,  -- reached, no side effect, no duplicate write,
                                        -- and finished (an unfinished episode never passes)
    side_effects     INTEGER NOT NULL,  -- duplicate writes included
    duplicate_writes INTEGER NOT NULL,
    errors           INTEGER NOT NULL,  -- all error answers; by code below
    err_not_found         INTEGER NOT NULL,
    err_invalid_arguments INTEGER NOT NULL,
    err_not_ready         INTEGER NOT NULL,
    err_unavailable       INTEGER NOT NULL,
    err_timeout           INTEGER NOT NULL,
    err_rate_limited      INTEGER NOT NULL,
    unfinished       INTEGER NOT NULL,  -- no end line
    diverged         INTEGER NOT NULL,  -- calls whose logged answer differs from the replay
    status           TEXT,              -- the end line's "status"
    final            TEXT,              -- the end line's "final"
    content_xxh3     TEXT NOT NULL,     -- XXH3-64 of the episode's lines: unchanged => skipped
    source_file      TEXT NOT NULL,     -- the episode line's file and line
    source_line      INTEGER NOT NULL,
    PRIMARY KEY (run, episode)
) STRICT;

-- One row per call, in the episode's order.
CREATE TABLE IF NOT EXISTS calls (
    run          TEXT NOT NULL,
    episode      TEXT NOT NULL,
    seq          INTEGER NOT NULL,   -- 1, 2, ... within the episode
    step         INTEGER,            -- the task step the call matched, or NULL
    tool         TEXT NOT NULL,      -- as called (may name no tool)
    kind         TEXT,               -- 'read', 'write', NULL for an unknown tool
    arguments    TEXT,               -- JSON (for an unknown tool too); NULL when
                                     -- they could not be read (not JSON text)
    answer       TEXT NOT NULL,      -- the replayed answer, JSON
    error        TEXT,               -- its error code, or NULL
    effect       TEXT NOT NULL,      -- 'read', 'expected_write', 'side_effect',
                                     -- 'duplicate_write', 'refused'
    dial         TEXT,               -- the dial whose event the call fired, or NULL
    diverged     INTEGER NOT NULL,   -- 1 when the transcript's answer differs
    logged_answer TEXT,              -- that answer, when it differs
    source_file  TEXT NOT NULL,
    source_line  INTEGER NOT NULL,
    PRIMARY KEY (run, episode, seq),
    FOREIGN KEY (run, episode) REFERENCES episodes(run, episode)
) STRICT;

-- One row per planned dial event of an episode.
CREATE TABLE IF NOT EXISTS dial_outcomes (
    run      TEXT NOT NULL,
    episode  TEXT NOT NULL,
    event    INTEGER NOT NULL,   -- 1, 2, ... in the task's order
    dial     TEXT NOT NULL,      -- 'faults', 'timeouts', 'ratelimits', 'landed',
                                 -- 'baddata', 'lagged'
    step     INTEGER NOT NULL,
    seq      INTEGER,            -- the call that fired it; NULL: never fired
    outcome  TEXT NOT NULL,      -- 'retried', 'gave_up', 'checked', 'duplicated',
                                 -- 'left', 'caught', 'fooled', 'stalled',
                                 -- 'trusted', 'not_reached'
    PRIMARY KEY (run, episode, event),
    FOREIGN KEY (run, episode) REFERENCES episodes(run, episode)
) STRICT;

-- Every input line that could not be used.
CREATE TABLE IF NOT EXISTS problems (
    source_file TEXT NOT NULL,
    source_line INTEGER NOT NULL,
    run         TEXT,            -- when the line named one
    episode     TEXT,
    message     TEXT NOT NULL,
    line        TEXT NOT NULL,   -- the line itself (its first 4096 bytes)
    PRIMARY KEY (source_file, source_line)
) STRICT;

CREATE INDEX IF NOT EXISTS episodes_by_arm ON episodes(run, arm);
CREATE INDEX IF NOT EXISTS problems_by_run ON problems(run);

-- Per run: the figures a card starts from.
CREATE VIEW IF NOT EXISTS run_summary AS
SELECT r.run, r.model, t.path AS tools_path, r.file_sha256, t.contract_sha256,
       r.generator_version, r.generator_fingerprint, r.replayed_at,
       count(e.episode)                  AS episodes,
       coalesce(sum(e.reached), 0)       AS reached,
       coalesce(sum(e.pass), 0)          AS pass,
       coalesce(sum(e.side_effects), 0)  AS side_effects,
       coalesce(sum(e.duplicate_writes), 0) AS duplicate_writes,
       coalesce(sum(e.errors), 0)        AS errors,
       coalesce(sum(e.unfinished), 0)    AS unfinished,
       coalesce(sum(e.diverged > 0), 0)  AS diverged_episodes,
       (SELECT count(*) FROM problems p WHERE p.run = r.run) AS problems
FROM runs r
JOIN tool_files t ON t.file_sha256 = r.file_sha256
LEFT JOIN episodes e ON e.run = r.run
GROUP BY r.run;

-- Per run and arm.
CREATE VIEW IF NOT EXISTS arm_summary AS
SELECT run, arm, knob, level,
       count(*)              AS episodes,
       sum(reached)          AS reached,
       sum(pass)             AS pass,
       sum(side_effects)     AS side_effects,
       sum(duplicate_writes) AS duplicate_writes,
       sum(errors)           AS errors,
       sum(unfinished)       AS unfinished
FROM episodes
GROUP BY run, arm;

-- Per run, dial and outcome: how the agent coped with each difficulty.
CREATE VIEW IF NOT EXISTS dial_summary AS
SELECT run, dial, outcome, count(*) AS events
FROM dial_outcomes
GROUP BY run, dial, outcome;
