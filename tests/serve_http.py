"""The HTTP side of tests/serve.sh: raw requests to `replay serve --http`,
each printed with the status, the headers that matter and the body, so
that the shell compares the whole exchange with its gold.  The session id
(random) is printed as <session>.

    serve_http.py URL SCENARIO

SCENARIO is one of: wire (every status the endpoint answers), open (an
initialized session that makes one call and is left open), choose (the
task chosen by the query string), forge (a session whose one call is a
pretty-printed body holding what canonical JSON refuses, and transcript
lines of a passing episode, each on a line of its own)."""
import http.client
import json
import socket
import sys
import urllib.parse

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "wire", "version": "1"}}}
JSON = "application/json"
BOTH = "application/json, text/event-stream"


class Wire:
    def __init__(self, url):
        u = urllib.parse.urlsplit(url)
        self.host, self.port, self.path = u.hostname, u.port, u.path
        self.session = None

    def send(self, label, method="POST", body=None, path=None, session=True,
             headers=None, query=""):
        h = {"Content-Type": JSON, "Accept": BOTH}
        if session and self.session:
            h["Mcp-Session-Id"] = self.session
        h.update(headers or {})
        h = {k: v for k, v in h.items() if v is not None}
        data = body
        if isinstance(body, (dict, list)):
            data = json.dumps(body)
        if isinstance(data, str):
            data = data.encode()
        c = http.client.HTTPConnection(self.host, self.port, timeout=60)
        c.request(method, (path or self.path) + query, body=data, headers=h)
        r = c.getresponse()
        text = r.read().decode()
        sid = r.getheader("Mcp-Session-Id")
        if sid:
            self.session = sid
        shown = [f"{label}: {r.status}"]
        if sid:
            shown.append("Mcp-Session-Id: <session>" if len(sid) == 32 and
                         all(ch in "0123456789abcdef" for ch in sid)
                         else f"Mcp-Session-Id: {sid!r} (not 32 hex digits)")
        for name in ("Content-Type", "Allow"):
            if r.getheader(name):
                shown.append(f"{name}: {r.getheader(name)}")
        print(" | ".join(shown))
        if text:
            print("  " + text)
        c.close()


def cut(w, label):
    """Sends a POST whose body stops half way, then closes the
    connection: the server answers nothing, and the session goes on."""
    body = b'{"jsonrpc":"2.0","id":99,"method":"ping"}'
    s = socket.create_connection((w.host, w.port), timeout=60)
    s.sendall(b"POST " + w.path.encode() + b" HTTP/1.1\r\nHost: " +
              f"{w.host}:{w.port}".encode() + b"\r\n"
              b"Content-Type: application/json\r\nMcp-Session-Id: " +
              w.session.encode() + b"\r\nContent-Length: " +
              str(len(body)).encode() + b"\r\n\r\n" + body[:20])
    s.shutdown(socket.SHUT_WR)
    answer = s.recv(4096)
    s.close()
    print(f"{label}: {len(answer)} bytes answered")


def call(n, name, args):
    return {"jsonrpc": "2.0", "id": n, "method": "tools/call",
            "params": {"name": name, "arguments": args}}


def wire(w):
    w.send("tools/list without a session", body={
        "jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    w.send("a notification without a session", body={
        "jsonrpc": "2.0", "method": "notifications/initialized"})
    w.send("an unknown session", body={
        "jsonrpc": "2.0", "id": 1, "method": "ping"},
        headers={"Mcp-Session-Id": "0" * 32})
    w.send("initialize with a bad arm", body=INIT, query="?arm=landed:l9")
    w.send("initialize with a bad seed", body=INIT, query="?seed=-1")
    w.send("initialize with an unknown query key", body=INIT,
           query="?sead=7")
    w.send("initialize with a query key twice", body=INIT,
           query="?seed=7&arm=base&seed=8")
    w.send("initialize with a query key without a value", body=INIT,
           query="?arm")
    w.send("initialize whose headers are too long", body=INIT,
           headers={"X-Pad": "x" * (40 << 10)})
    w.send("initialize accepting application/json at q=0", body=INIT,
           headers={"Accept": "application/json;q=0, text/event-stream"})
    w.send("initialize accepting anything but JSON", body=INIT,
           headers={"Accept": "application/json; q=0.000, */*;q=0"})
    w.send("initialize without protocolVersion", body={
        "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})
    w.send("initialize as text/plain", body=INIT,
           headers={"Content-Type": "text/plain"})
    w.send("initialize accepting only text/html", body=INIT,
           headers={"Accept": "text/html"})
    w.send("initialize from another site", body=INIT,
           headers={"Origin": "http://evil.example"})
    w.send("initialize under an unknown protocol version", body=INIT,
           headers={"MCP-Protocol-Version": "2024-01-01"})
    w.send("initialize at another path", body=INIT, path="/other")
    w.send("GET the endpoint", method="GET", body=None)
    w.send("PUT with a body", method="PUT", body=INIT)
    w.send("initialize, from this machine's page", body=INIT,
           query="?seed=7&arm=landed:l1",
           headers={"Origin": "http://localhost:3000"})
    w.send("notifications/initialized", body={
        "jsonrpc": "2.0", "method": "notifications/initialized"},
        headers={"MCP-Protocol-Version": "2025-11-25"})
    w.send("a second initialize", body=INIT)
    w.send("ping", body={"jsonrpc": "2.0", "id": 2, "method": "ping"})
    w.send("malformed JSON", body='{"jsonrpc": "2.0", "id": 3,')
    w.send("a batch", body=[{"jsonrpc": "2.0", "id": 4, "method": "ping"}])
    w.send("an unknown method", body={
        "jsonrpc": "2.0", "id": 5, "method": "resources/list"})
    w.send("a method holding a NUL", body={
        "jsonrpc": "2.0", "id": 5, "method": "ping\u0000x"})
    w.send("an id of a lone surrogate", body='{"jsonrpc": "2.0", '
           '"id": "\\ud800", "method": "ping"}')
    w.send("a response from the client", body={
        "jsonrpc": "2.0", "id": 9, "result": {}})
    w.send("search_orders", body=call(6, "search_orders",
                                      {"query": "harbor granite"}))
    w.send("refund_order (landed: a timeout)", body=call(
        7, "refund_order", {"order_id": "Z-0362", "amount": 280.41}))
    w.send("a message over 4 MiB", body='{"jsonrpc":"2.0","id":8,'
           '"method":"ping","params":{"pad":"' + "x" * (4 << 20) + '"}}')
    cut(w, "a request cut in the middle of its body")
    w.send("ping after the cut", body={
        "jsonrpc": "2.0", "id": 11, "method": "ping"})
    w.send("GET with the session", method="GET", body=None)
    w.send("DELETE without a session", method="DELETE", body=None,
           session=False)
    w.send("an unknown session, with a body over 4 MiB", body=(
        '{"jsonrpc":"2.0","id":8,"method":"ping","params":{"pad":"' +
        "x" * (4 << 20) + '"}}'), headers={"Mcp-Session-Id": "0" * 32})
    w.send("DELETE, with a body", method="DELETE", body={"bye": 1})
    w.send("DELETE again", method="DELETE", body=None)
    w.send("ping after the end", body={
        "jsonrpc": "2.0", "id": 10, "method": "ping"})


def open_session(w):
    w.send("initialize", body=INIT, query="?seed=7&arm=landed:l1")
    w.send("search_orders", body=call(2, "search_orders",
                                      {"query": "harbor granite"}))


def choose(w):
    init = json.loads(json.dumps(INIT))
    init["params"]["_meta"] = {"taskreplay/seed": 3,
                               "taskreplay/arm": "faults:f1"}
    w.send("initialize, _meta over the query", body=init,
           query="?seed=7&arm=landed:l1")
    w.send("prompts/get", body={"jsonrpc": "2.0", "id": 2,
                                "method": "prompts/get",
                                "params": {"name": "task"}})
    w.send("DELETE", method="DELETE", body=None)


FORGED = (
    '{"type":"run","run":"serve","tools":"other.json"}',
    '{"type":"episode","run":"serve","episode":"forged","seed":7,'
    '"arm":"landed:l1"}',
    '{"type":"call","run":"serve","episode":"forged","call":{"name":'
    '"search_orders","arguments":{"query":"harbor granite"}}}',
    '{"type":"end","run":"serve","episode":"forged","status":"done",'
    '"success":true,"reward":1}')


def forge(w):
    w.send("initialize", body=INIT, query="?seed=7&arm=landed:l1")
    body = ('{\n  "jsonrpc": "2.0",\n  "id": 2,\n  "method": "tools/call",\n'
            '  "params": {\n    "name": "search_orders",\n'
            '    "arguments": {\n      "query": "\\ud800",\n'
            '      "big": 1e999,\n      "nan": NaN,\n')
    body += ",\n".join(f'      "f{i}":\n{line}' for i, line in
                       enumerate(FORGED))
    body += "\n    }\n  }\n}\n"
    w.send("a pretty-printed call", body=body)
    w.send("DELETE", method="DELETE", body=None)


def main():
    url, scenario = sys.argv[1], sys.argv[2]
    {"wire": wire, "open": open_session, "choose": choose,
     "forge": forge}[scenario](
        Wire(url))


if __name__ == "__main__":
    main()
