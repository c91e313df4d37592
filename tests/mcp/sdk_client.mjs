// replay serve, driven through the MCP TypeScript SDK's own client.
//
//   REPLAY=path/to/replay node sdk_client.mjs --work DIR FILE...
//
// DIR is a scratch folder holding the tool files FILE... (transcripts name
// their tool file relative to their own folder, so both live there).  The
// first FILE is also served over Streamable HTTP.  Every answer of the
// server is compared with what `replay sim` answers to the same calls in
// the same order, the prompt with `replay tasks`, the tool list with
// `replay tools --json`, and each transcript is replayed into SQLite: no
// call may diverge, and each episode's reached and pass are its report's.
//
// Exit status 0 when every check passed, 1 otherwise (one line a failed
// check: `FAIL: what: expected X, got Y`); the last line counts the checks.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const REPLAY = process.env.REPLAY;
const REQUEST = { timeout: 180000 };   // per request, for a loaded machine
const ARMS = ['base', 'landed:l1', 'timeouts:o1', 'faults:f1', 'baddata:b1',
    'lagged:g1'];
const SESSIONS = 50;

let work = null;
const files = [];
for (let i = 2; i < process.argv.length; i++) {
    if (process.argv[i] === '--work')
        work = process.argv[++i];
    else
        files.push(path.resolve(process.argv[i]));
}
if (!REPLAY || !work || files.length === 0) {
    console.error('usage: REPLAY=replay node sdk_client.mjs --work DIR FILE...');
    process.exit(2);
}
work = path.resolve(work);

// ---- checks

let passed = 0;
const failed = [];

// JSON with every object's keys sorted: two values are the same exactly
// when their texts are.
function canon(v) {
    if (v === undefined)
        return '(absent)';
    if (v === null || typeof v !== 'object')
        return JSON.stringify(v);
    if (Array.isArray(v))
        return '[' + v.map(canon).join(',') + ']';
    return '{' + Object.keys(v).filter((k) => v[k] !== undefined).sort()
        .map((k) => JSON.stringify(k) + ':' + canon(v[k])).join(',') + '}';
}

function clip(s) {
    return s.length > 600 ? s.slice(0, 600) + '...' : s;
}

function check(what, expected, got) {
    const e = canon(expected), g = canon(got);
    if (e === g) {
        passed++;
        return true;
    }
    failed.push(`FAIL: ${what}: expected ${clip(e)}, got ${clip(g)}`);
    return false;
}

function fail(what, expected, got) {
    const one = String(got).trim().replace(/\s*\n\s*/g, ' | ');
    failed.push(`FAIL: ${what}: expected ${expected}, got ${clip(one)}`);
}

// ---- the replay program

function replay(args, input, cwd = work) {
    const r = spawnSync(REPLAY, args, { input: input ?? '', cwd,
        encoding: 'utf8', maxBuffer: 256 << 20 });
    return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '',
        error: r.error };
}

function mustReplay(args, input) {
    const r = replay(args, input);
    if (r.status !== 0)
        throw new Error(`replay ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
    return r.stdout;
}

function lines(text) {
    return text.split('\n').filter((l) => l !== '');
}

function toolTable(file) {
    return JSON.parse(mustReplay(['tools', '--json', file]));
}

// The tasks of SEEDS (e.g. "1-50") and ARMS, by "seed arm".
function tasks(file, seeds, arms) {
    const out = new Map();
    for (const l of lines(mustReplay(['tasks', file, '--seeds', seeds,
        '--arms', arms.join(',')]))) {
        const t = JSON.parse(l);
        out.set(`${t.seed} ${t.arm}`, t);
    }
    return out;
}

// replay sim's answer lines and report to CALLS, made in this order.
let simCount = 0;
function sim(file, seed, arm, calls) {
    const report = path.join(work, `sim-report-${++simCount}.jsonl`);
    const input = calls.map((c) => JSON.stringify(c) + '\n').join('');
    const r = replay(['sim', file, '--seed', String(seed), '--arm', arm,
        '--report', report], input);
    if (r.status !== 0)
        throw new Error(`replay sim ${file} --seed ${seed} --arm ${arm}: ` +
            `exit ${r.status}: ${r.stderr}`);
    const rep = lines(fs.readFileSync(report, 'utf8')).map((l) => JSON.parse(l));
    fs.unlinkSync(report);
    return { answers: lines(r.stdout), calls: rep.filter((x) => !x.verdict),
        verdict: rep.find((x) => x.verdict)?.verdict };
}

// The message of an error answer in the file's idiom, or null for a success.
function errorMessage(format, v) {
    if (v === null || typeof v !== 'object' || Array.isArray(v))
        return null;
    const keys = Object.keys(v).sort().join(',');
    if (format === 'openai' && keys === 'error' && v.error &&
        typeof v.error.message === 'string')
        return v.error.message;
    if (format === 'mcp' && keys === 'content,isError' && v.isError === true)
        return v.content[0].text;
    if (format === 'openapi' && keys === 'detail,status' &&
        typeof v.detail === 'string')
        return v.detail;
    return null;
}

// The tools/call result the server owes for the sim answer LINE.
function expectedResult(format, line) {
    const v = JSON.parse(line);
    const message = errorMessage(format, v);
    if (message !== null)
        return { content: [{ type: 'text', text: message }], isError: true };
    const r = { content: [{ type: 'text', text: line }] };
    if (v !== null && typeof v === 'object' && !Array.isArray(v))
        r.structuredContent = v;
    return r;
}

// A result as compared: isError false is the same as no isError.
function asGot(r) {
    if (r && r.isError === false) {
        const { isError, ...rest } = r;
        return rest;
    }
    return r;
}

function sqlite(db, sql) {
    const out = execFileSync('sqlite3', ['-json', db, sql], { encoding: 'utf8' });
    return out.trim() === '' ? [] : JSON.parse(out);
}

function withTimeout(promise, ms, what) {
    let timer;
    return Promise.race([promise, new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no end in ${ms / 1000} s`)), ms);
    })]).finally(() => clearTimeout(timer));
}

function exited(child, ms) {
    if (child.exitCode !== null || child.signalCode !== null)
        return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
    return withTimeout(new Promise((resolve) => child.once('exit',
        (code, signal) => resolve({ code, signal }))), ms, 'server exit');
}

// ---- one scripted episode

function isError(r) {
    return !r || r.thrown !== undefined || r.isError === true;
}

// Calls TOOL and keeps the call and what came back (the SDK's error, when it
// threw one, as {thrown}).
async function call(client, rec, name, args) {
    rec.calls.push({ name, arguments: args });
    try {
        rec.results.push(await client.callTool({ name, arguments: args },
            undefined, REQUEST));
    } catch (e) {
        rec.results.push({ thrown: String(e && e.message || e) });
    }
    return rec.results[rec.results.length - 1];
}

// An argument list of TOOL's with one value of the wrong type.
function badArguments(tool, args) {
    const bad = { ...args };
    const number = tool.arguments.find((a) => a.type === 'number' || a.type === 'integer');
    if (number) {
        bad[number.name] = 'x';
        return bad;
    }
    const other = tool.arguments.find((a) => a.type === 'string');
    if (other)
        bad[other.name] = 12345;
    else
        bad.unexpected_argument = true;
    return bad;
}

// Works TASK as an agent would: each step's tool with the task's arguments,
// a handed argument taken from the answer of the step that hands it, a call
// answered with an error made again (twice at most); then what OPTS asks
// for, and always a tool that does not exist and a call with bad arguments.
async function scripted(client, table, task, opts = {}) {
    const byName = new Map(table.tools.map((t) => [t.name, t]));
    const rec = { calls: [], results: [] };
    if (opts.listFirst && byName.has('list_channels'))
        await call(client, rec, 'list_channels', {});
    const handed = new Map();
    let last = null;
    for (const step of task.steps) {
        const args = { ...step.arguments };
        if (step.handed && handed.has(step.handed.from_step))
            args[step.handed.argument] = handed.get(step.handed.from_step);
        let r = await call(client, rec, step.tool, args);
        for (let n = 1; n < 3 && isError(r); n++)
            r = await call(client, rec, step.tool, args);
        if (step.hands) {
            if (opts.reread && step.step === 1)
                r = await call(client, rec, step.tool, args);
            const sc = !isError(r) && r.structuredContent;
            handed.set(step.step, sc && step.hands.field in sc
                ? sc[step.hands.field] : step.hands.value);
        }
        last = { step, args };
    }
    if (opts.duplicate && last)
        await call(client, rec, last.step.tool, last.args);
    // Read back what the task is about, by the value step 1 handed.
    const hand = task.steps[0] && task.steps[0].hands;
    const reader = hand && table.tools.find((t) => t.kind === 'read' &&
        t.name !== task.steps[0].tool &&
        t.arguments.some((a) => a.name === hand.argument));
    if (reader)
        await call(client, rec, reader.name, { [hand.argument]: handed.get(1) });
    await call(client, rec, 'no_such_tool', {});
    if (last)
        await call(client, rec, last.step.tool,
            badArguments(byName.get(last.step.tool), last.args));
    return rec;
}

// ---- what is checked of every episode

function checkTools(what, listed, table) {
    const got = new Map(listed.tools.map((t) => [t.name, t]));
    check(`${what}: tools/list names`, table.tools.map((t) => t.name).sort(),
        [...got.keys()].sort());
    for (const t of table.tools) {
        const m = got.get(t.name);
        if (!m)
            continue;
        check(`${what}: ${t.name} description`, t.description, m.description);
        check(`${what}: ${t.name} annotations.readOnlyHint`, t.kind === 'read',
            m.annotations && m.annotations.readOnlyHint);
        const input = m.inputSchema || {};
        check(`${what}: ${t.name} inputSchema.type`, 'object', input.type);
        check(`${what}: ${t.name} inputSchema property names`,
            t.arguments.map((a) => a.name).sort(),
            Object.keys(input.properties || {}).sort());
        check(`${what}: ${t.name} inputSchema.required`,
            t.arguments.filter((a) => a.required).map((a) => a.name).sort(),
            (input.required || []).slice().sort());
        const schema = t.output_schema;
        if (schema === null)
            check(`${what}: ${t.name} outputSchema`, undefined, m.outputSchema);
        else if (schema.type === 'object')
            check(`${what}: ${t.name} outputSchema`, schema, m.outputSchema);
        else if (m.outputSchema !== undefined)
            check(`${what}: ${t.name} outputSchema.type`, 'object',
                m.outputSchema.type);
    }
}

function checkPrompt(what, prompt, task) {
    check(`${what}: prompts/get task messages[0]`,
        { role: 'user', content: { type: 'text', text: task.request } },
        prompt && prompt.messages && prompt.messages[0]);
}

// Each answer against replay sim's to the same calls; returns sim's run.
function checkAnswers(what, file, format, seed, arm, rec) {
    const s = sim(file, seed, arm, rec.calls);
    check(`${what}: replay sim answers`, rec.calls.length, s.answers.length);
    rec.calls.forEach((c, i) => {
        if (i < s.answers.length)
            check(`${what}: call ${i + 1} ${c.name} ${JSON.stringify(c.arguments)}`,
                expectedResult(format, s.answers[i]), asGot(rec.results[i]));
    });
    return s;
}

function readJsonl(file) {
    return lines(fs.readFileSync(file, 'utf8')).map((l) => JSON.parse(l));
}

// The transcript, report and database of one server against its episodes
// (each {what, seed, arm, calls, sim, status}), all of the same run.
function checkRecords(what, transcript, report, run, episodes) {
    let lines_;
    try {
        lines_ = readJsonl(transcript);
    } catch (e) {
        fail(`${what}: transcript ${transcript}`, 'JSON lines', e.message);
        return;
    }
    const runs = lines_.filter((l) => l.type === 'run');
    check(`${what}: transcript has a run line of run "${run}"`, true,
        runs.length > 0 && runs.every((l) => l.run === run && l.model === 'sdk-model'));
    const starts = lines_.filter((l) => l.type === 'episode');
    check(`${what}: transcript episodes`, episodes.length, starts.length);
    // Each episode whole: its episode line, its calls, its end line.
    const blocks = new Map();
    let contiguous = true;
    for (let i = 0; i < lines_.length; i++) {
        if (lines_[i].type !== 'episode')
            continue;
        let j = i + 1;
        while (j < lines_.length && lines_[j].type === 'call' &&
            lines_[j].episode === lines_[i].episode)
            j++;
        if (!(j < lines_.length && lines_[j].type === 'end' &&
            lines_[j].episode === lines_[i].episode))
            contiguous = false;
        blocks.set(`${lines_[i].seed} ${lines_[i].arm}`, {
            name: lines_[i].episode, calls: lines_.slice(i + 1, j),
            end: lines_[j] });
    }
    check(`${what}: transcript episodes each whole (episode, calls, end)`,
        true, contiguous);
    let reportLines = [];
    try {
        reportLines = readJsonl(report);
    } catch (e) {
        fail(`${what}: report ${report}`, 'JSON lines', e.message);
    }
    const verdicts = new Map();
    for (const l of reportLines)
        if (l.verdict)
            verdicts.set(l.episode, l.verdict);
    check(`${what}: report verdicts`, episodes.length, verdicts.size);
    for (const ep of episodes) {
        const b = blocks.get(`${ep.seed} ${ep.arm}`);
        if (!b) {
            fail(`${ep.what}: transcript episode of seed ${ep.seed} arm ${ep.arm}`,
                'an episode line', 'none');
            continue;
        }
        check(`${ep.what}: transcript calls`, ep.calls,
            b.calls.map((c) => ({ name: c.call && c.call.name,
                arguments: c.call && c.call.arguments })));
        check(`${ep.what}: transcript end status`, ep.status, b.end && b.end.status);
        const mine = reportLines.filter((l) => l.episode === b.name && !l.verdict);
        const pick = (x) => ({ call: x.call, tool: x.tool, step: x.step,
            effect: x.effect, error: x.error, dial: x.dial });
        check(`${ep.what}: report calls`, ep.sim.calls.map(pick), mine.map(pick));
        check(`${ep.what}: report verdict`, ep.sim.verdict, verdicts.get(b.name));
        ep.name = b.name;
    }
    // Replayed into SQLite: nothing diverges, verdicts as reported.
    const db = transcript.replace(/\.jsonl$/, '') + '.db';
    const r = replay(['--quiet', '--db', db, path.basename(transcript)]);
    check(`${what}: replay --db of the transcript exit status`, 0, r.status);
    if (r.status !== 0)
        fail(`${what}: replay said`, 'nothing', r.stderr.trim());
    const total = episodes.reduce((n, e) => n + e.calls.length, 0);
    check(`${what}: calls and diverged in the database`,
        [{ n: total, diverged: 0 }],
        sqlite(db, 'select count(*) as n, coalesce(sum(diverged), 0) as diverged from calls'));
    check(`${what}: runs in the database`, [{ run, model: 'sdk-model' }],
        sqlite(db, 'select run, model from runs'));
    const rows = new Map(sqlite(db, 'select episode, seed, arm, reached, pass, ' +
        'status from episodes').map((e) => [e.episode, e]));
    check(`${what}: episodes in the database`, episodes.length, rows.size);
    for (const ep of episodes) {
        if (!ep.name)
            continue;
        const v = verdicts.get(ep.name) || {};
        check(`${ep.what}: episode ${ep.name} in the database`,
            { episode: ep.name, seed: ep.seed, arm: ep.arm,
                reached: v.reached ? 1 : 0, pass: v.pass ? 1 : 0,
                status: ep.status },
            rows.get(ep.name));
    }
}

// ---- stdio

// Ends an stdio session as its contract says: EOF on standard input; the
// server writes the episode and exits 0.  The transport's own close() sends
// SIGTERM to a server not gone within 2 s, which on a loaded machine would
// end the episode "stopped": its child process (`_process` in SDK 1.32.2,
// pinned in package.json) is given EOF here, and waited for.
async function endStdio(what, client, transport) {
    const child = transport._process;
    let end = null;
    if (child) {
        child.stdin.end();
        try {
            end = await exited(child, 120000);
        } catch (e) {
            child.kill('SIGKILL');
        }
    }
    check(`${what}: server exit after EOF on stdin`, { code: 0, signal: null }, end);
    await client.close();
}

async function stdioFile(file) {
    const table = toolTable(file);
    const base = path.basename(file).replace(/\.[a-z]+$/, '');
    const what = `stdio ${path.basename(file)}`;
    const seed = 7, arm = 'landed:l1';
    const task = tasks(file, String(seed), [arm]).get(`${seed} ${arm}`);
    const run = `sdk-${base}`;
    const transcript = path.join(work, `stdio-${base}.jsonl`);
    const report = path.join(work, `stdio-${base}.report.jsonl`);
    let stderr = '';
    const transport = new StdioClientTransport({ command: REPLAY, cwd: work,
        stderr: 'pipe', args: ['serve', file, '--seed', String(seed), '--arm', arm,
            '--run', run, '--model', 'sdk-model', '--transcript', transcript,
            '--report', report] });
    transport.stderr.on('data', (d) => { stderr += d; });
    const client = new Client({ name: 'taskreplay-tests', version: '1.0.0' });
    let rec;
    try {
        await client.connect(transport, REQUEST);
        const caps = client.getServerCapabilities() || {};
        check(`${what}: capabilities.tools and .prompts`, [true, true],
            [caps.tools !== undefined, caps.prompts !== undefined]);
        checkTools(what, await client.listTools(undefined, REQUEST), table);
        const prompts = await client.listPrompts(undefined, REQUEST);
        check(`${what}: prompts/list names`, ['task'], prompts.prompts.map((p) => p.name));
        checkPrompt(what, await client.getPrompt({ name: 'task' }, REQUEST), task);
        rec = await scripted(client, table, task, { listFirst: true });
    } catch (e) {
        fail(`${what}: session`, 'no error', `${e.message}; server stderr: ${stderr}`);
        await client.close();
        return;
    }
    await endStdio(what, client, transport);
    const s = checkAnswers(what, file, table.format, seed, arm, rec);
    checkRecords(what, transcript, report, run,
        [{ what, seed, arm, calls: rec.calls, sim: s, status: 'done' }]);
}

// JSON-RPC through an SDK transport by hand, for what the Client does not
// let one choose (the protocol version it asks for).
function rpc(transport) {
    const waiting = new Map();
    let next = 1;
    let closed = false;
    transport.onmessage = (m) => {
        const w = waiting.get(m.id);
        if (w) {
            waiting.delete(m.id);
            w.resolve(m);
        }
    };
    transport.onclose = () => {
        closed = true;
        for (const w of waiting.values())
            w.reject(new Error('the connection closed before the answer'));
        waiting.clear();
    };
    return (method, params) => {
        const id = next++;
        return withTimeout(new Promise((resolve, reject) => {
            if (closed)
                return reject(new Error('the connection is closed'));
            waiting.set(id, { resolve, reject });
            transport.send({ jsonrpc: '2.0', id, method, params }).catch(reject);
        }), REQUEST.timeout, method);
    };
}

function initializeParams(version) {
    return { protocolVersion: version, capabilities: {},
        clientInfo: { name: 'taskreplay-tests', version: '1.0.0' } };
}

// Each protocol version over stdio (no --seed or --arm: seed 1, base).
async function stdioVersions(file) {
    const table = toolTable(file);
    const task = tasks(file, '1', ['base']).get('1 base');
    for (const version of ['2025-06-18', '2025-11-25']) {
        const what = `stdio ${path.basename(file)} protocol ${version}`;
        const transport = new StdioClientTransport({ command: REPLAY, cwd: work,
            stderr: 'pipe', args: ['serve', file] });
        transport.stderr.on('data', () => {});
        try {
            await transport.start();
            const request = rpc(transport);
            const init = await request('initialize', initializeParams(version));
            check(`${what}: initialize protocolVersion`, version,
                init.result && init.result.protocolVersion);
            await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
            const listed = await request('tools/list', {});
            check(`${what}: tools/list names`, table.tools.map((t) => t.name).sort(),
                ((listed.result && listed.result.tools) || []).map((t) => t.name).sort());
            const prompt = await request('prompts/get', { name: 'task' });
            checkPrompt(`${what} (seed 1, base by default)`, prompt.result, task);
        } catch (e) {
            fail(`${what}: session`, 'no error', e.message);
        }
        const child = transport._process;
        if (child) {
            child.stdin.end();
            let end = null;
            try {
                end = await exited(child, 120000);
            } catch (e) {
                child.kill('SIGKILL');
            }
            check(`${what}: server exit after EOF on stdin`, { code: 0, signal: null }, end);
        }
        await transport.close();
    }
}

// ---- Streamable HTTP

const LISTENING = /^replay serve: listening on (http:\/\/127\.0\.0\.1:(\d+)\/mcp)$/;

// Starts `replay serve FILE --http 127.0.0.1:0 ARGS...` and waits for the
// line that names its endpoint.
function startHttp(file, args) {
    const child = spawn(REPLAY, ['serve', file, '--http', '127.0.0.1:0', ...args],
        { cwd: work, stdio: ['pipe', 'pipe', 'pipe'] });
    const server = { child, stderr: '', stdout: '' };
    child.stdout.on('data', (d) => { server.stdout += d; });
    server.ready = withTimeout(new Promise((resolve, reject) => {
        child.stderr.on('data', (d) => {
            server.stderr += d;
            for (const l of server.stderr.split('\n').slice(0, -1)) {
                const m = LISTENING.exec(l);
                if (m)
                    resolve(m[1]);
            }
        });
        child.once('exit', (code, signal) => reject(new Error(
            `server exited (${code ?? signal}) before listening: ${server.stderr}`)));
        child.once('error', reject);
    }), 120000, 'the listening line');
    return server;
}

// The endpoint SERVER listens on, once it says so; null (a failed check,
// the server killed) when it never does.
async function listening(what, server) {
    try {
        return await server.ready;
    } catch (e) {
        fail(`${what}: server start`, 'the listening line', e.message);
        server.child.kill('SIGKILL');
        return null;
    }
}

async function stopHttp(what, server) {
    server.child.kill('SIGTERM');
    let end = null;
    try {
        end = await exited(server.child, 120000);
    } catch (e) {
        server.child.kill('SIGKILL');
    }
    check(`${what}: server ended by SIGTERM`, true, end !== null);
    check(`${what}: listening lines on stderr`, 1,
        server.stderr.split('\n').filter((l) => l.startsWith('replay serve: listening on')).length);
}

// One session of an HTTP server: connects to URL, checks the prompt is
// TASK's, works the task, and ends the session unless OPTS.keepOpen.
async function httpSession(what, url, table, task, opts = {}) {
    const transport = new StreamableHTTPClientTransport(new URL(url));
    const client = new Client({ name: 'taskreplay-tests', version: '1.0.0' });
    const out = { what, seed: task.seed, arm: task.arm, calls: [], results: [],
        client, transport };
    try {
        await client.connect(transport, REQUEST);
        out.protocolVersion = transport.protocolVersion;
        out.sessionId = transport.sessionId;
        checkPrompt(what, await client.getPrompt({ name: 'task' }, REQUEST), task);
        const rec = await scripted(client, table, task, opts);
        out.calls = rec.calls;
        out.results = rec.results;
        if (!opts.keepOpen) {
            await transport.terminateSession();
            await client.close();
        }
    } catch (e) {
        out.error = e.message;
        fail(`${what}: session`, 'no error', e.message);
        await client.close().catch(() => {});
    }
    return out;
}

// b) SESSIONS sessions at once on one server, seeds 1.. and arms cycling.
async function httpMany(file) {
    const table = toolTable(file);
    const what = `http ${path.basename(file)}`;
    const run = 'sdk-http';
    const transcript = path.join(work, 'http.jsonl');
    const report = path.join(work, 'http.report.jsonl');
    const all = tasks(file, `1-${SESSIONS}`, ARMS);
    const server = startHttp(file, ['--run', run, '--model', 'sdk-model',
        '--transcript', transcript, '--report', report]);
    const endpoint = await listening(what, server);
    if (!endpoint)
        return;
    const plan = [];
    for (let seed = 1; seed <= SESSIONS; seed++) {
        const arm = ARMS[(seed - 1) % ARMS.length];
        plan.push({ seed, arm, task: all.get(`${seed} ${arm}`),
            opts: { listFirst: seed % 2 === 0, duplicate: seed % 4 === 0,
                reread: seed % 5 === 0 } });
    }
    const sessions = await Promise.all(plan.map((p) => httpSession(
        `${what} seed ${p.seed} ${p.arm}`, `${endpoint}?seed=${p.seed}&arm=${p.arm}`,
        table, p.task, p.opts)));
    check(`${what}: distinct session ids`, SESSIONS,
        new Set(sessions.map((s) => s.sessionId).filter(Boolean)).size);
    check(`${what}: negotiated protocol versions`, sessions.map(() => '2025-11-25'),
        sessions.map((s) => s.protocolVersion));
    // The same calls, one replay sim after another.
    const episodes = [];
    for (const s of sessions) {
        const sm = checkAnswers(s.what, file, table.format, s.seed, s.arm, s);
        episodes.push({ what: s.what, seed: s.seed, arm: s.arm, calls: s.calls,
            sim: sm, status: 'done' });
    }
    await stopHttp(what, server);
    checkRecords(what, transcript, report, run, episodes);
}

// The end status of the episode of SEED and ARM in TRANSCRIPT, once there
// (a minute at most).
async function endStatus(transcript, seed, arm) {
    for (let n = 0; n < 600; n++) {
        try {
            const ls = readJsonl(transcript);
            const start = ls.find((l) => l.type === 'episode' && l.seed === seed &&
                l.arm === arm);
            const end = start && ls.find((l) => l.type === 'end' &&
                l.episode === start.episode);
            if (end)
                return end.status;
        } catch (e) {
            // not written yet, or being written
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return null;
}

// c) Seed and arm chosen by the endpoint's query, or the command line's;
// protocol 2025-06-18 through the SDK's transport; an open session is
// written "stopped" when SIGTERM ends the server.
async function httpQuery(file) {
    const table = toolTable(file);
    const what = `http-query ${path.basename(file)}`;
    const run = 'sdk-query';
    const transcript = path.join(work, 'query.jsonl');
    const report = path.join(work, 'query.report.jsonl');
    const all = tasks(file, '5,11,23,31,42', ['depth:d3', 'ratelimits:r2',
        'lagged:g1', 'base']);
    const server = startHttp(file, ['--seed', '5', '--arm', 'depth:d3', '--run', run,
        '--model', 'sdk-model', '--transcript', transcript, '--report', report]);
    const endpoint = await listening(what, server);
    if (!endpoint)
        return;
    const sessions = [];
    sessions.push(await httpSession(`${what} ?seed=23&arm=ratelimits:r2`,
        `${endpoint}?seed=23&arm=ratelimits:r2`, table, all.get('23 ratelimits:r2')));
    // Ended by DELETE, the episode is written while the server runs on.
    check(`${what}: episode of seed 23 in the transcript after DELETE`, 'done',
        await endStatus(transcript, 23, 'ratelimits:r2'));
    sessions.push(await httpSession(`${what} no query (--seed 5 --arm depth:d3)`,
        endpoint, table, all.get('5 depth:d3')));
    sessions.push(await httpSession(`${what} ?seed=11 (--arm depth:d3)`,
        `${endpoint}?seed=11`, table, all.get('11 depth:d3')));

    // Protocol 2025-06-18, asked for by hand through the SDK's transport.
    const v = { what: `${what} ?seed=31&arm=lagged:g1 protocol 2025-06-18`,
        seed: 31, arm: 'lagged:g1', calls: [], results: [] };
    const transport = new StreamableHTTPClientTransport(
        new URL(`${endpoint}?seed=31&arm=lagged:g1`));
    try {
        await transport.start();
        const request = rpc(transport);
        const init = await request('initialize', initializeParams('2025-06-18'));
        check(`${v.what}: initialize protocolVersion`, '2025-06-18',
            init.result && init.result.protocolVersion);
        transport.setProtocolVersion('2025-06-18');
        await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        const prompt = await request('prompts/get', { name: 'task' });
        checkPrompt(v.what, prompt.result, all.get('31 lagged:g1'));
        const step = all.get('31 lagged:g1').steps[0];
        v.calls.push({ name: step.tool, arguments: step.arguments });
        const answer = await request('tools/call', { name: step.tool,
            arguments: step.arguments });
        v.results.push(answer.result ?? { error: answer.error });
        await transport.terminateSession();
    } catch (e) {
        fail(`${v.what}: session`, 'no error', e.message);
    }
    await transport.close();
    sessions.push(v);

    // Left open: SIGTERM writes it, "stopped".
    const open = await httpSession(`${what} ?seed=42&arm=base left open`,
        `${endpoint}?seed=42&arm=base`, table, all.get('42 base'), { keepOpen: true });
    open.status = 'stopped';
    const episodes = [];
    for (const s of [...sessions, open]) {
        const sm = checkAnswers(s.what, file, table.format, s.seed, s.arm, s);
        episodes.push({ what: s.what, seed: s.seed, arm: s.arm, calls: s.calls,
            sim: sm, status: s.status || 'done' });
    }
    await stopHttp(what, server);
    await open.client.close().catch(() => {});
    checkRecords(what, transcript, report, run, episodes);
}

// ---- main

async function main() {
    for (const file of files)
        await stdioFile(file);
    await stdioVersions(files[0]);
    await httpMany(files[0]);
    await httpQuery(files[0]);
}

try {
    await main();
} catch (e) {
    fail('the test script', 'to run to its end', e.stack || e.message);
}
for (const l of failed)
    console.log(l);
console.log(`sdk: ${passed} checks passed`);
process.exit(failed.length === 0 && passed > 0 ? 0 : 1);
