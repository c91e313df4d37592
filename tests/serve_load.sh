# replay serve --http under load, on the loopback only, bounded in time
# (every read has a timeout, the whole run one of 600 s, room for a
# loaded 2-core machine running the sanitizers); tests/serve_load.py
# drives it:
#  - --connections 6: six stalled connections (connected, nothing sent)
#    hold every place, a seventh connection's request is answered 503;
#    --timeout 3 closes the stalled ones after 3 s (not before), and a
#    request is answered again;
#  - a client sending its body a byte a second is closed unanswered after
#    the timeout;
#  - 30 honest sessions at once, while 10 stalled clients and 5 slow
#    senders hold connections of their own: every message answered, each
#    session as the same session alone is, the stalled and slow closed;
#    the transcript replays with every episode done, nothing diverged,
#    no problem.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
skip_unless_python
need_cmd sqlite3
need_cmd timeout coreutils
tmpdir
pass=0 fail=0
ok() { count_eq "$@"; }
T=$TEST_TMP
cp "$TOP_SRCDIR/samples/tools/shop.json" "$T/shop.json"
cd "$T" || exit 99
load() { timeout 300 "$PYTHON3" "$TOP_SRCDIR/tests/serve_load.py" "$@"; }

# a server on a free port of 127.0.0.1: serve_start, serve_stop (lib.sh)

serve_start full.err --connections 6 --timeout 3
ok "--connections 6, --timeout 3" "a request past 6 connections: 503 Service Unavailable: 6 connections are open, the most this server serves (--connections); retry in a moment
stalled connections closed by the server: 6 of 6, 0 bytes sent to them
each closed after the timeout, within 10 s more: yes
then a request (retried while 503): 200" "$(load "$url" full 6 3 2>&1)"
ok "a slow sender" "a slow sender: closed, 0 bytes answered, after the timeout" \
    "$(load "$url" slow 3 2>&1)"
serve_stop
ok "--connections, --timeout: exit status" 0 $?

serve_start load.err --connections 100 --timeout 3 --transcript load.jsonl
ok "30 sessions among stalled and slow clients" "honest sessions: 30 of 30 ended, answers by status: [(200, 180), (202, 30)]
a session answers as the same session alone: yes
stalled connections closed: 10 of 10
slow senders closed unanswered: 5 of 5" "$(load "$url" load 30 3 2>&1)"
serve_stop
ok "under load: exit status" 0 $?
ok "under load: every episode written, done" "31 episodes, 31 done" \
    "$(grep -c '^replay serve: episode ' load.err) episodes, $(grep -c '"type":"end".*"status":"done"' load.jsonl) done"
"$REPLAY" --db load.db load.jsonl > /dev/null 2>&1
ok "under load: replayed" "0: 31 episodes, 93 calls, 0 diverged, 0 problems" \
    "$?: $(sqlite3 load.db "SELECT (SELECT count(*) FROM episodes) || ' episodes, ' ||
        (SELECT count(*) FROM calls) || ' calls, ' ||
        (SELECT sum(diverged) FROM calls) || ' diverged, ' ||
        (SELECT count(*) FROM problems) || ' problems'")"

echo "serve under load: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
