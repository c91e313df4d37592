#!/usr/bin/env python3
"""reallogs.py NIGHT_DIR TOOLS OUT_DIR: the episodes of a night of
transcripts (tests/nightgen's) as the logs real harnesses write, for make
bench to time replay reading them (replay --from inspect, --from otlp):

  night.eval        an Inspect eval log of every episode, a sample each,
                    as Inspect writes one: the messages (a system prompt,
                    the user's request, the assistant's text and tool
                    calls, the tools' results), the events (the sample's
                    start, a model event a turn with its input, the tools
                    offered, its output and the raw API request and
                    response, a tool event a call), the scores, model
                    usage and times, and long texts kept once in the
                    sample's attachments (attachment:// references);
                    members compressed with deflate
  night-zstd.eval   the same members compressed with Zstandard (zip
                    method 93, as Inspect writes since 0.3.206), by
                    libzstd through ctypes
  night-genai.jsonl OTLP JSON Lines as a Collector's file exporter writes
                    them, a trace an episode, spans as the GenAI semantic
                    conventions name them: invoke_agent (tasks.seed and
                    tasks.arm), a chat span a turn (model, token usage,
                    gen_ai.input.messages and gen_ai.output.messages as
                    JSON text), an execute_tool span a call; a line holds
                    a batch of spans of several traces, as a batching
                    processor sends them

It prints the size of the samples' JSON (uncompressed) and the number of
spans, which make bench divides by the time replay takes.  The text is
made from a seeded generator: the same night gives the same bytes."""
import ctypes
import ctypes.util
import hashlib
import json
import os
import random
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from logs import read_night  # noqa: E402

WORDS = ("order refund customer account shipment address invoice payment "
         "status warehouse carrier tracking policy window return exchange "
         "item quantity price discount coupon balance receipt email notice "
         "request confirm check verify update cancel review escalate note "
         "the a of to and for with on by from that this which is was will "
         "be has have not can should must may within after before days").split()

dumps = lambda v: json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def text(rng, words):
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


class Zstd:
    """ZSTD_compress from libzstd, which every Debian has."""

    def __init__(self):
        name = ctypes.util.find_library("zstd") or "libzstd.so.1"
        self.lib = ctypes.CDLL(name)
        self.lib.ZSTD_compressBound.restype = ctypes.c_size_t
        self.lib.ZSTD_compressBound.argtypes = [ctypes.c_size_t]
        self.lib.ZSTD_compress.restype = ctypes.c_size_t
        self.lib.ZSTD_compress.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                           ctypes.c_char_p, ctypes.c_size_t,
                                           ctypes.c_int]
        self.lib.ZSTD_isError.argtypes = [ctypes.c_size_t]

    def __call__(self, data):
        cap = self.lib.ZSTD_compressBound(len(data))
        out = ctypes.create_string_buffer(cap)
        n = self.lib.ZSTD_compress(out, cap, data, len(data), 3)
        if self.lib.ZSTD_isError(n):
            raise RuntimeError("zstd failed")
        return out.raw[:n]


class Zip:
    """A zip written member by member: method 8 (deflate) or 93 (zstd)."""

    def __init__(self, path, method):
        self.f = open(path, "wb")
        self.method = method
        self.zstd = Zstd() if method == 93 else None
        self.central = []

    def add(self, name, data):
        if self.method == 93:
            packed = self.zstd(data)
        else:
            c = zlib.compressobj(6, zlib.DEFLATED, -15)
            packed = c.compress(data) + c.flush()
        crc = zlib.crc32(data)
        at = self.f.tell()
        raw = name.encode()
        # 2026-01-01 00:00 in DOS time and date
        head = struct.pack("<IHHHHHIIIHH", 0x04034b50, 63, 0, self.method,
                           0, (46 << 9) | (1 << 5) | 1, crc, len(packed),
                           len(data), len(raw), 0)
        self.f.write(head + raw + packed)
        self.central.append(struct.pack(
            "<IHHHHHHIIIHHHHHII", 0x02014b50, 63, 63, 0, self.method, 0,
            (46 << 9) | (1 << 5) | 1, crc, len(packed), len(data), len(raw),
            0, 0, 0, 0, 0, at) + raw)

    def close(self):
        start = self.f.tell()
        for c in self.central:
            self.f.write(c)
        size = self.f.tell() - start
        n = len(self.central)
        if n > 0xFFFF or start + size > 0xFFFFFFFF:
            # more members than the end record counts (as Python's zipfile
            # writes then): the Zip64 end record, its locator, and an end
            # record that says to read them
            at = self.f.tell()
            self.f.write(struct.pack("<IQHHIIQQQQ", 0x06064b50, 44, 45, 45,
                                     0, 0, n, n, size, start))
            self.f.write(struct.pack("<IIQI", 0x07064b50, 0, at, 1))
            n = 0xFFFF
            size = min(size, 0xFFFFFFFF)
            start = min(start, 0xFFFFFFFF)
        self.f.write(struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, n, n, size,
                                 start, 0))
        self.f.close()


def tool_defs(tools_path):
    doc = json.load(open(tools_path))
    return [t["function"] for t in doc if "function" in t]


def sample(e, n, model, tools, system):
    """One episode as Inspect's sample: its JSON text."""
    rng = random.Random(e["seed"] * 7919 + n)
    attachments = {}

    def keep(s):
        """Long texts once, in the attachments (as Inspect condenses)."""
        if len(s) <= 100:
            return s
        h = hashlib.md5(s.encode()).hexdigest()
        attachments[h] = s
        return "attachment://" + h

    request = text(rng, 40)
    msgs = [{"id": "m0", "role": "system", "content": system,
             "source": None},
            {"id": "m1", "role": "user", "content": request,
             "source": "input"}]
    events = [{"event": "sample_init", "timestamp": "2026-01-01T00:00:00",
               "working_start": 0.0,
               "sample": {"input": request, "id": e["name"], "epoch": 1,
                          "metadata": {"seed": e["seed"], "arm": e["arm"]}},
               "state": {"messages": [], "store": {}}}]
    usage_in = usage_out = 0
    t = 0.0
    calls = e["calls"] + [None]
    for i, c in enumerate(calls):
        said = text(rng, 30 + rng.randrange(40))
        if c is not None:
            name, args, answer = c
            cid = "call_%s_%d" % (e["name"], i)
            tc = [{"id": cid, "function": name, "arguments": args,
                   "type": "function", "parse_error": None}]
            reply = {"id": "m%da" % i, "role": "assistant", "content": said,
                     "source": "generate", "tool_calls": tc, "model": model}
        else:
            reply = {"id": "m%da" % i, "role": "assistant", "content": said,
                     "source": "generate", "model": model}
        in_tok = 300 + 120 * i + rng.randrange(50)
        out_tok = 40 + rng.randrange(80)
        usage_in += in_tok
        usage_out += out_tok
        usage = {"input_tokens": in_tok, "output_tokens": out_tok,
                 "total_tokens": in_tok + out_tok}
        output = {"model": model, "choices": [
            {"message": reply, "stop_reason":
             "tool_calls" if c is not None else "stop"}],
            "usage": usage, "time": 0.8}
        shown = [dict(m, content=keep(m["content"])) for m in msgs]
        events.append({
            "event": "model", "timestamp": "2026-01-01T00:00:%02d" % (i % 60),
            "working_start": t, "model": model, "input": shown,
            "tools": [{"name": d["name"], "description": d["description"],
                       "parameters": d["parameters"]} for d in tools],
            "tool_choice": "auto", "config": {"temperature": 0.0},
            "output": dict(output, choices=[
                {"message": dict(reply, content=keep(said)),
                 "stop_reason": output["choices"][0]["stop_reason"]}]),
            "call": {"request": {"model": model, "messages": [
                {"role": m["role"], "content": keep(m["content"])}
                for m in msgs], "tools": [{"type": "function", "function": d}
                                          for d in tools],
                "tool_choice": "auto", "temperature": 0.0},
                "response": {"id": "chatcmpl-%d" % rng.randrange(10 ** 9),
                             "object": "chat.completion", "usage": {
                                 "prompt_tokens": in_tok,
                                 "completion_tokens": out_tok}}}})
        t += 0.8
        msgs.append(reply)
        if c is not None:
            result = dumps(answer)
            msgs.append({"id": "m%dt" % i, "role": "tool", "content": result,
                         "source": None, "tool_call_id": cid,
                         "function": name})
            events.append({"event": "tool", "type": "function", "id": cid,
                           "function": name, "arguments": args,
                           "result": result, "events": [],
                           "timestamp": "2026-01-01T00:00:%02d" % (i % 60),
                           "working_start": t})
            t += 0.1
    s = {"id": e["name"], "epoch": 1, "input": request, "target": "",
         "messages": [dict(m, content=keep(m["content"])) for m in msgs],
         "output": {"model": model, "choices": [
             {"message": dict(msgs[-1], content=keep(msgs[-1]["content"])),
              "stop_reason": "stop"}]},
         "scores": {"includes": {"value": "C", "answer": said[:40],
                                 "explanation": said}},
         "metadata": {"seed": e["seed"], "arm": e["arm"]}, "store": {},
         "events": events,
         "model_usage": {model: {"input_tokens": usage_in,
                                 "output_tokens": usage_out,
                                 "total_tokens": usage_in + usage_out}},
         "total_time": t + 0.5, "working_time": t,
         "uuid": "%032x" % rng.getrandbits(128), "error": None,
         "attachments": attachments}
    return dumps(s).encode()


def span_text(trace, span, parent, name, kind, start, end, attrs):
    """A span as OTLP JSON writes it (attrs: its attributes' texts)."""
    return ('{"traceId":"%s","spanId":"%s","parentSpanId":"%s","name":%s,'
            '"kind":%d,"startTimeUnixNano":"%d","endTimeUnixNano":"%d",'
            '"attributes":[%s],"status":{}}' % (
                trace, span, parent, json.dumps(name), kind, start, end,
                ",".join(attrs)))


def spans_of(e, n, model, run):
    """One episode as OTLP spans (JSON texts) of the GenAI conventions."""
    rng = random.Random(e["seed"] * 104729 + n)
    trace = "%032x" % (n + 1)
    agent = "%016x" % ((n + 1) << 8)
    kv = lambda k, v: '{"key":"%s","value":%s}' % (k, v)
    sv = lambda s: '{"stringValue":%s}' % json.dumps(s)
    iv = lambda i: '{"intValue":"%d"}' % i
    out = []
    t0 = 1767225600000000000 + n * 10 ** 9
    at = t0
    history = [{"role": "user", "parts": [
        {"type": "text", "content": text(rng, 30)}]}]
    for i, c in enumerate(e["calls"] + [None]):
        said = text(rng, 20 + rng.randrange(30))
        parts = [{"type": "text", "content": said}]
        if c is not None:
            parts.append({"type": "tool_call", "id": "c%d" % i,
                          "name": c[0], "arguments": c[1]})
        span = "%016x" % (((n + 1) << 8) + 2 * i + 1)
        out.append(span_text(
            trace, span, agent, "chat " + model, 3, at, at + 800000000, [
                kv("gen_ai.operation.name", sv("chat")),
                kv("gen_ai.request.model", sv(model)),
                kv("gen_ai.response.model", sv(model)),
                kv("gen_ai.usage.input_tokens", iv(300 + 100 * i)),
                kv("gen_ai.usage.output_tokens", iv(40 + i)),
                kv("gen_ai.input.messages", sv(dumps(history))),
                kv("gen_ai.output.messages", sv(dumps(
                    [{"role": "assistant", "parts": parts}])))]))
        at += 800000000
        history = history + [{"role": "assistant", "parts": parts}]
        if c is None:
            break
        name, args, answer = c
        tool = "%016x" % (((n + 1) << 8) + 2 * i + 2)
        result = dumps(answer)
        out.append(span_text(
            trace, tool, agent, "execute_tool " + name, 1, at, at + 50000000, [
                kv("gen_ai.operation.name", sv("execute_tool")),
                kv("gen_ai.tool.name", sv(name)),
                kv("gen_ai.tool.call.id", sv("c%d" % i)),
                kv("gen_ai.tool.call.arguments", sv(dumps(args))),
                kv("gen_ai.tool.call.result", sv(result))]))
        at += 50000000
        history = history + [{"role": "tool", "parts": [
            {"type": "tool_call_response", "id": "c%d" % i,
             "response": result}]}]
    # the agent's span ends last, and is sent last
    out.append(span_text(
        trace, agent, "", "invoke_agent " + run, 1, t0, at + 1000, [
            kv("gen_ai.operation.name", sv("invoke_agent")),
            kv("gen_ai.agent.name", sv(run)),
            kv("tasks.seed", iv(e["seed"])),
            kv("tasks.arm", sv(e["arm"]))]))
    return out


def main(night, tools_path, out):
    runs, episodes = read_night(night)
    tools = tool_defs(tools_path)
    rng = random.Random(1)
    system = " ".join(text(rng, 25) for _ in range(12))
    deflate = Zip(os.path.join(out, "night.eval"), 8)
    zst = Zip(os.path.join(out, "night-zstd.eval"), 93)
    run = "bench"
    model = runs[episodes[0]["run"]] or "openai/gpt-4o" if episodes else ""
    header = dumps({"version": 2, "status": "success", "eval": {
        "task": run, "eval_id": "bench", "run_id": "bench",
        "model": model, "created": "2026-01-01T00:00:00+00:00"}}).encode()
    for z in (deflate, zst):
        z.add("header.json", header)
    sample_bytes = 0
    for n, e in enumerate(episodes):
        # one task of every run's episodes: ids made unique by the run
        e = dict(e, name="%s-%s" % (e["run"], e["name"]))
        data = sample(e, n, model, tools, system)
        sample_bytes += len(data)
        member = "samples/%s_epoch_1.json" % e["name"]
        deflate.add(member, data)
        zst.add(member, data)
    deflate.close()
    zst.close()
    spans = 0
    with open(os.path.join(out, "night-genai.jsonl"), "w") as f:
        batch = []

        def send():
            f.write('{"resourceSpans":[{"resource":{"attributes":[{"key":'
                    '"service.name","value":{"stringValue":"%s"}}]},'
                    '"scopeSpans":[{"scope":{"name":"agent"},"spans":[%s]}]}]}'
                    '\n' % (run, ",".join(batch)))
            batch.clear()
        for n, e in enumerate(episodes):
            for s in spans_of(e, n, model, run):
                batch.append(s)
                spans += 1
                if len(batch) == 512:
                    send()
        if batch:
            send()
    print("%d %d %d" % (len(episodes), sample_bytes, spans))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
