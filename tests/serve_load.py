"""The load side of tests/serve_load.sh: `replay serve --http` on the
loopback, held by stalled and slow clients while honest sessions run.

    serve_load.py URL PHASE

PHASE is one of:
  full     the server runs with --connections N (given as the third
           argument) and --timeout T (the fourth): N stalled connections
           (connected, nothing sent) hold every place; a request on one
           more is answered 503; the stalled ones are closed by the
           server after T seconds (not before, and within T + 10); then a
           request is answered 200.
  slow     a client sending its headers then its body a byte a second is
           closed unanswered after T seconds (the fourth argument).
  load     SESSIONS honest sessions (the third argument) run at once,
           each from its own thread: initialize (seed = its number, arm
           base), tools/list, three calls, DELETE; while 10 stalled
           clients and 5 slow senders hold connections of their own.
           Every honest message is answered, exactly as the first session
           of that seed is; the stalled and slow ones are closed.

Each phase prints its findings one a line, without times or ports, so
that the shell compares them exactly; every socket has a timeout, so that
nothing waits for ever."""
import http.client
import json
import socket
import sys
import threading
import time
import urllib.parse

WAIT = 60  # seconds any one read may take, on a loaded machine


def parts(url):
    u = urllib.parse.urlsplit(url)
    return u.hostname, u.port, u.path


def request(host, port, path, body, session=None, method="POST",
            query=""):
    """One request on a connection of its own: (status, headers, body)."""
    c = http.client.HTTPConnection(host, port, timeout=WAIT)
    h = {"Content-Type": "application/json",
         "Accept": "application/json, text/event-stream"}
    if session:
        h["Mcp-Session-Id"] = session
    data = json.dumps(body).encode() if body is not None else None
    c.request(method, path + query, body=data, headers=h)
    r = c.getresponse()
    text = r.read().decode()
    out = (r.status, r.getheader("Mcp-Session-Id"), text)
    c.close()
    return out


def init(seed):
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "load", "version": "1"},
                       "_meta": {"taskreplay/seed": seed,
                                 "taskreplay/arm": "base"}}}


def stalled(host, port, n):
    """n connections that send nothing."""
    out = []
    for _ in range(n):
        s = socket.create_connection((host, port), timeout=WAIT)
        out.append(s)
    return out


def closed_by_server(s, opened):
    """Waits for the server to close s (opened at that monotonic time):
    whether it did, what it sent (nothing, for a client cut), and how long
    after its opening."""
    got = b""
    try:
        while True:
            chunk = s.recv(4096)
            if not chunk:
                return True, got, time.monotonic() - opened
            got += chunk
    except (ConnectionResetError, BrokenPipeError):
        return True, got, time.monotonic() - opened
    except socket.timeout:
        return False, got, time.monotonic() - opened
    finally:
        s.close()


def phase_full(url, n, timeout):
    host, port, path = parts(url)
    opened = time.monotonic()
    held = stalled(host, port, n)
    time.sleep(0.5)  # the server has counted them
    status, _, text = request(host, port, path, init(1))
    print(f"a request past {n} connections: {status} "
          f"{json.loads(text)['error']['message']}")
    results = [closed_by_server(s, opened) for s in held]
    print(f"stalled connections closed by the server: "
          f"{sum(1 for r in results if r[0])} of {n}, "
          f"{sum(len(r[1]) for r in results)} bytes sent to them")
    # a second's tick, and room for a loaded machine
    late = [r[2] for r in results
            if not timeout - 0.5 <= r[2] <= timeout + 10]
    print("each closed after the timeout, within 10 s more: "
          f"{'yes' if not late else f'no ({late})'}")
    # the client may see a connection closed a moment before the server
    # has counted it gone: a 503 then says "retry in a moment", and a
    # client that does is served (within 10 s, for a loaded machine)
    deadline = time.monotonic() + 10
    while True:
        status, sid, _ = request(host, port, path, init(1))
        if status != 503 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    print(f"then a request (retried while 503): {status}")
    request(host, port, path, None, session=sid, method="DELETE")


def slow_sender(host, port, path, seconds, out, i):
    """Headers, then a byte of the body a second: out[i] gets whether the
    server closed the connection unanswered, and how long it took."""
    body = json.dumps(init(1)).encode()
    s = socket.create_connection((host, port), timeout=WAIT)
    s.sendall(b"POST " + path.encode() + b" HTTP/1.1\r\nHost: " +
              f"{host}:{port}".encode() +
              b"\r\nContent-Type: application/json\r\nContent-Length: " +
              str(len(body)).encode() + b"\r\n\r\n")
    began = time.monotonic()
    answered = b""
    cut = False
    for k in range(min(len(body), seconds + 30)):
        try:
            s.sendall(body[k:k + 1])
        except (BrokenPipeError, ConnectionResetError):
            cut = True
            break
        s.settimeout(1)
        try:
            chunk = s.recv(4096)
            if not chunk:
                cut = True
                break
            answered += chunk
        except socket.timeout:
            pass
        except ConnectionResetError:
            cut = True
            break
        s.settimeout(WAIT)
    s.close()
    out[i] = (cut, answered, time.monotonic() - began)


def phase_slow(url, timeout):
    host, port, path = parts(url)
    out = [None]
    slow_sender(host, port, path, timeout, out, 0)
    cut, answered, took = out[0]
    print(f"a slow sender: {'closed' if cut else 'not closed'}, "
          f"{len(answered)} bytes answered, "
          f"{'after the timeout' if timeout - 1 <= took <= timeout + 10 else f'after {took:.1f} s'}")


def session(host, port, path, seed, out):
    """One honest session; out[seed] gets every answer (ids as sent)."""
    got = []
    status, sid, text = request(host, port, path, init(seed))
    got.append((status, text))
    c = http.client.HTTPConnection(host, port, timeout=WAIT)
    msgs = [{"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
            {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
             "params": {"name": "search_orders",
                        "arguments": {"query": "harbor granite"}}},
            {"jsonrpc": "2.0", "id": 4, "method": "tools/call",
             "params": {"name": "list_channels", "arguments": {}}},
            {"jsonrpc": "2.0", "id": 5, "method": "tools/call",
             "params": {"name": "get_order",
                        "arguments": {"order_id": "Z-0362"}}}]
    for m in msgs:  # one keep-alive connection, as SDK clients use
        c.request("POST", path, body=json.dumps(m).encode(),
                  headers={"Content-Type": "application/json",
                           "Accept": "application/json, text/event-stream",
                           "Mcp-Session-Id": sid})
        r = c.getresponse()
        got.append((r.status, r.read().decode()))
    c.request("DELETE", path, headers={"Mcp-Session-Id": sid})
    r = c.getresponse()
    got.append((r.status, r.read().decode()))
    c.close()
    out[seed] = got


def phase_load(url, sessions, timeout):
    host, port, path = parts(url)
    held = stalled(host, port, 10)
    slow_out = [None] * 5
    slow = [threading.Thread(target=slow_sender,
                             args=(host, port, path, timeout, slow_out, i))
            for i in range(5)]
    for t in slow:
        t.start()
    out = {}
    honest = [threading.Thread(target=session,
                               args=(host, port, path, seed, out))
              for seed in range(1, sessions + 1)]
    for t in honest:
        t.start()
    for t in honest:
        t.join(WAIT * 2)
    statuses = {}
    for seed in range(1, sessions + 1):
        for status, _ in out.get(seed, [(0, "")]):
            statuses[status] = statuses.get(status, 0) + 1
    print(f"honest sessions: {len(out)} of {sessions} ended, answers by "
          f"status: {sorted(statuses.items())}")
    # the same seed twice gives the same answers: session 1 again, alone
    again = {}
    session(host, port, path, 1, again)
    print("a session answers as the same session alone: "
          f"{'yes' if again[1] == out.get(1) else 'no'}")
    results = [closed_by_server(s, 0) for s in held]
    print(f"stalled connections closed: "
          f"{sum(1 for r in results if r[0])} of 10")
    for t in slow:
        t.join(WAIT * 2)
    print(f"slow senders closed unanswered: "
          f"{sum(1 for r in slow_out if r and r[0] and not r[1])} of 5")


def main():
    url, phase = sys.argv[1], sys.argv[2]
    if phase == "full":
        phase_full(url, int(sys.argv[3]), int(sys.argv[4]))
    elif phase == "slow":
        phase_slow(url, int(sys.argv[3]))
    else:
        phase_load(url, int(sys.argv[3]), int(sys.argv[4]))


if __name__ == "__main__":
    main()
