-- Queries to paste into:  sqlite3 -header -column results.db
-- The tables and views are described in sql/schema.sql.

-- 1. Each run: what produced it and how it went.
SELECT run, model, tools_path, substr(file_sha256, 1, 12) AS file,
       substr(contract_sha256, 1, 12) AS contract, generator_version,
       episodes, reached, pass, side_effects, duplicate_writes, unfinished,
       diverged_episodes, problems
FROM run_summary ORDER BY run;

-- 2. Pass rate per arm of one run, worst first.
SELECT arm, episodes, pass, round(100.0 * pass / episodes, 1) AS pass_pct,
       side_effects, duplicate_writes
FROM arm_summary WHERE run = 'careful'
ORDER BY 1.0 * pass / episodes, arm;

-- 3. How the agent coped with each dial.
SELECT run, dial, outcome, events FROM dial_summary ORDER BY run, dial, events DESC;

-- 4. Every side effect of a run, with the call that made it.
SELECT e.arm, c.episode, c.seq, c.tool, c.arguments, c.effect
FROM calls c JOIN episodes e USING (run, episode)
WHERE c.run = 'sloppy' AND c.effect IN ('side_effect', 'duplicate_write')
ORDER BY c.episode, c.seq;

-- 5. One episode call by call: what the agent sent, what it got.
SELECT seq, step, tool, arguments, answer, effect, error, dial
FROM calls WHERE run = 'careful' AND episode = 'careful-landed:l1-s1'
ORDER BY seq;

-- 6. The task of an episode: its request and its chain.
SELECT t.request, json_extract(t.task, '$.steps') AS steps
FROM episodes e JOIN tasks t USING (task_id)
WHERE e.run = 'careful' AND e.episode = 'careful-base-s1';

-- 7. Errors answered, by code, per run.
SELECT run, coalesce(error, 'none') AS error, count(*) AS calls
FROM calls GROUP BY run, error ORDER BY run, calls DESC;

-- 8. Episodes whose logged answers differ from the replay (diverged).
SELECT run, episode, diverged FROM episodes WHERE diverged > 0;
SELECT run, episode, seq, logged_answer, answer FROM calls WHERE diverged = 1;

-- 9. The lines that could not be used, per file, and what replay --from
--    could not use of other harnesses' logs (place says where in the log;
--    their source_line is -1, -2... in the order found).
SELECT source_file, source_line, place, run, episode, message FROM problems
ORDER BY source_file, source_line >= 0, abs(source_line);

-- 10. Runs on one tool contract, whatever the file's layout (a reformatted
--     file shares the contract hash but not the file hash, nor the tasks).
SELECT r.run, t.path, substr(t.file_sha256, 1, 12) AS file
FROM runs r JOIN tool_files t USING (file_sha256)
WHERE t.contract_sha256 = (SELECT contract_sha256 FROM run_summary WHERE run = 'careful');

-- 11. pass^k per run (success^k for observed episodes): the chance that k
--     trials of a task all pass, over the tasks with k trials or more.
SELECT run, kind, k, round(100.0 * rate, 1) AS pct, tasks
FROM pass_hat_k ORDER BY run, kind, k;
--     One run's alone, on a database of many runs: the view's formula fed
--     from that run's trials (the view computes every run's first).  This
--     is the query card runs.
WITH RECURSIVE t(kind, n, c) AS (
    SELECT kind, CASE kind WHEN 'simulated' THEN trials ELSE judged END,
           CASE kind WHEN 'simulated' THEN passes ELSE coalesce(successes, 0) END
    FROM trials WHERE run = 'careful'),
p(kind, n, c, k, r) AS (
    SELECT kind, n, c, 1, 1.0 * c / n FROM t WHERE n >= 1
    UNION ALL
    SELECT kind, n, c, k + 1, r * (c - k) / (n - k) FROM p WHERE k < n)
SELECT kind, k, avg(r) AS rate, count(*) AS tasks
FROM p GROUP BY kind, k ORDER BY kind DESC, k;

-- 12. Two runs paired by task: each task's rate in A and in B.
SELECT a.task, a.arm, 1.0 * a.passes / a.trials AS a_rate,
       1.0 * b.passes / b.trials AS b_rate
FROM trials a JOIN trials b ON b.task = a.task AND b.kind = a.kind
WHERE a.run = 'careful' AND b.run = 'sloppy' AND a.kind = 'simulated'
ORDER BY a.task;

-- 13. Observed episodes: calls per tool, invalid arguments, the harness's
--     verdicts.
SELECT e.run, c.tool, coalesce(c.kind, '(no such tool)') AS kind,
       count(*) AS calls, count(*) FILTER (WHERE c.arguments_valid = 0) AS invalid
FROM calls c JOIN episodes e ON e.episode_id = c.episode_id
WHERE e.seed IS NULL GROUP BY e.run, c.tool ORDER BY e.run, calls DESC;
SELECT run, count(success) AS judged, sum(success) AS successes,
       avg(reward) AS mean_reward
FROM episodes WHERE seed IS NULL GROUP BY run;

-- 14. What each run used, where its log says (NULL: it does not): the
--     model's tokens, the cost, the episodes' mean time, and the tools
--     that took longest on average.
SELECT run, count(input_tokens) AS counted, sum(input_tokens) AS input_tokens,
       sum(output_tokens) AS output_tokens, round(sum(cost), 4) AS cost,
       round(avg(duration), 1) AS mean_seconds
FROM episodes GROUP BY run ORDER BY run;
SELECT run, tool, count(duration) AS timed, round(avg(duration), 3) AS mean_seconds
FROM calls WHERE duration IS NOT NULL GROUP BY run, tool
ORDER BY mean_seconds DESC LIMIT 10;

-- 15. Why episodes ended: each run's classes (episode_outcomes), then a
--     run's failures with the call each class points at, then the tasks
--     that passed in one run and not in the other, with each side's class.
SELECT run, class, count(*) AS episodes FROM episode_outcomes
GROUP BY run, class ORDER BY run, episodes DESC;
SELECT arm, episode, class, seq, tool, error, dial FROM episode_outcomes
WHERE run = 'sloppy' AND class <> 'passed' ORDER BY arm, episode_id;
SELECT a.task, a.arm, a.class AS in_careful, b.class AS in_sloppy
FROM episode_outcomes a JOIN episode_outcomes b ON b.task = a.task
WHERE a.run = 'careful' AND b.run = 'sloppy'
  AND (a.class = 'passed') <> (b.class = 'passed')
ORDER BY a.task;
