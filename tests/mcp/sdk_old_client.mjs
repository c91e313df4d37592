// replay serve, driven by a client of the MCP TypeScript SDK's 1.12 line
// (sdk-1-12 in package.json), from before June 2025: it asks for protocol
// revision 2025-03-26 and refuses a server that answers with another.
//
//   REPLAY=path/to/replay node sdk_old_client.mjs --work DIR FILE
//
// FILE (a tool file with output schemas, in DIR) is served over stdio and
// over Streamable HTTP.  On each: the client connects (the revision is
// agreed), the server declares logging and accepts logging/setLevel, the
// tool list has no outputSchema and no answer structuredContent (2025-03-26
// has neither), every answer is the one the current revision gets, and the
// transcript replays with nothing diverged.
//
// Exit status 0 when every check passed, 1 otherwise (a line a failed
// check); the last line counts the checks.

import { Client } from 'sdk-1-12/client/index.js';
import { StdioClientTransport } from 'sdk-1-12/client/stdio.js';
import { StreamableHTTPClientTransport } from 'sdk-1-12/client/streamableHttp.js';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const REPLAY = process.env.REPLAY;
const REQUEST = { timeout: 180000 };   // per request, for a loaded machine

let work = null, file = null;
for (let i = 2; i < process.argv.length; i++) {
    if (process.argv[i] === '--work')
        work = path.resolve(process.argv[++i]);
    else
        file = path.resolve(process.argv[i]);
}
if (!REPLAY || !work || !file) {
    console.error('usage: REPLAY=replay node sdk_old_client.mjs --work DIR FILE');
    process.exit(2);
}

let passed = 0;
const failed = [];
// JSON with every object's keys sorted: two values are the same exactly
// when their texts are.
function canon(v) {
    if (Array.isArray(v))
        return v.map(canon);
    if (v && typeof v === 'object')
        return Object.fromEntries(Object.keys(v).sort().map(k => [k, canon(v[k])]));
    return v;
}
function check(what, want, got) {
    const w = JSON.stringify(canon(want)), g = JSON.stringify(canon(got));
    if (w === g)
        passed++;
    else
        failed.push(`FAIL: ${what}: expected ${w}, got ${g}`);
}

// The calls each session makes: a read that answers an object, one with
// arguments that break the schema (an error answer), and a tool the file
// has not.
const CALLS = [
    { name: 'search_orders', arguments: { query: 'maple' } },
    { name: 'get_order', arguments: { order_id: 7 } },
    { name: 'no_such_tool', arguments: {} },
];

async function session(label, transport, newest) {
    const client = new Client({ name: 'old-sdk-test', version: '1.12.3' });
    try {
        await client.connect(transport, REQUEST);
    } catch (e) {
        failed.push(`FAIL: ${label}: the 1.12 client cannot connect: ${e.message}`);
        return;
    }
    passed++;
    const caps = client.getServerCapabilities() || {};
    check(`${label}: capabilities`, ['logging', 'prompts', 'tools'],
          Object.keys(caps).sort());
    check(`${label}: logging/setLevel`, {},
          await client.setLoggingLevel('warning', REQUEST));
    const tools = (await client.listTools({}, REQUEST)).tools;
    check(`${label}: the tools, as the newest revision lists them but their outputSchema`,
          newest.tools.map(t => { const u = { ...t }; delete u.outputSchema; return u; }),
          tools);
    check(`${label}: no outputSchema in 2025-03-26`, 0,
          tools.filter(t => 'outputSchema' in t).length);
    const prompt = await client.getPrompt({ name: 'task' }, REQUEST);
    check(`${label}: the task's prompt`, 'user', prompt.messages[0].role);
    for (const c of CALLS) {
        const r = await client.callTool(c, undefined, REQUEST);
        check(`${label}: ${c.name}: no structuredContent in 2025-03-26`, false,
              'structuredContent' in r);
        check(`${label}: ${c.name}: one text block`, 'text', r.content[0].type);
        newest.answers.push(r.content[0].text);
    }
    await client.close();
}

// What the newest revision lists: tools/list of a session that asks for
// 2025-11-25, over stdio, by hand.
const asked = [
    { jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {},
                clientInfo: { name: 'by-hand', version: '0' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
].map(m => JSON.stringify(m) + '\n').join('');
const replies = execFileSync(REPLAY, ['serve', file],
                             { input: asked, stdio: ['pipe', 'pipe', 'ignore'] })
    .toString().trim().split('\n').map(l => JSON.parse(l));
check('the newest revision, asked for, is agreed', '2025-11-25',
      replies[0].result.protocolVersion);
const listed = replies[1].result;
check('the file has output schemas, so that leaving them out is seen', true,
      listed.tools.some(t => 'outputSchema' in t));

// over stdio
const stdioAnswers = { tools: listed.tools, answers: [] };
await session('stdio', new StdioClientTransport({
    command: REPLAY,
    args: ['serve', file, '--seed', '3', '--transcript',
           path.join(work, 'old-stdio.jsonl')],
    stderr: 'ignore',
}), stdioAnswers);

// over Streamable HTTP
const server = spawn(REPLAY, ['serve', file, '--seed', '3', '--http',
                              '127.0.0.1:0', '--transcript',
                              path.join(work, 'old-http.jsonl')],
                     { stdio: ['ignore', 'ignore', 'pipe'] });
const url = await new Promise((resolve, reject) => {
    let err = '';
    server.stderr.on('data', d => {
        err += d;
        const m = err.match(/listening on (\S+)/);
        if (m)
            resolve(m[1]);
    });
    server.on('exit', () => reject(new Error(`replay serve ended: ${err}`)));
});
const httpAnswers = { tools: listed.tools, answers: [] };
await session('http', new StreamableHTTPClientTransport(new URL(url)),
              httpAnswers);
server.kill('SIGTERM');
await new Promise(r => server.on('exit', r));

// The same seed and calls: the same answers on either transport.
check('the answers over HTTP are those over stdio', stdioAnswers.answers,
      httpAnswers.answers);

// Each transcript replays with nothing diverged.
for (const t of ['old-stdio.jsonl', 'old-http.jsonl']) {
    const db = path.join(work, t + '.db');
    execFileSync(REPLAY, ['--quiet', '--db', db, path.join(work, t)],
                 { stdio: 'ignore' });
    const got = execFileSync('sqlite3', [db,
        'SELECT count(*), coalesce(sum(diverged > 0), 0) FROM episodes'])
        .toString().trim();
    check(`${t}: one episode, nothing diverged`, '1|0', got);
}

for (const f of failed)
    console.log(f);
console.log(`sdk 1.12: ${passed} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
