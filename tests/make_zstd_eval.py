#!/usr/bin/env python3
"""Writes the Zstandard .eval fixtures of tests/logs_hostile (run it from
that folder, with the zstd command-line tool on the PATH; the fixtures are
kept in the repository, so the tests need neither):

  zstd.eval     tests/logs/inspect-eval's members as Inspect writes them
                since 0.3.206: zip method 93, frames without a content
                size; one sample in two frames, one written twice (the
                last entry stands, as Inspect reads it), the header in
                deflate (an old log a new Inspect appended to mixes both)
  zstd-bad.eval a member that expands past 256 MiB (300 MiB of spaces in
                a few kilobytes, its header saying 1 KiB), one whose last
                frame is cut short, one whose CRC-32 is wrong, a sample in
                Inspect's chunked layout whose first chunk of messages is
                an empty list (refused, and said), and a good sample
                after them

The zip is made by hand (Python's zipfile has no method 93 before 3.14):
local headers, the central directory and its end, no data descriptor."""
import os
import struct
import subprocess
import sys
import zlib

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                   "logs", "inspect-eval")


def zstd(data, frames=1):
    """data as zstd frames (content size left out, as a stream writes)."""
    if not data:
        return b""  # Inspect writes no byte for an empty member
    step = -(-len(data) // frames)
    out = b""
    for at in range(0, len(data), step):
        out += subprocess.run(["zstd", "-q", "-c", "-3", "--no-content-size"],
                              input=data[at:at + step], check=True,
                              stdout=subprocess.PIPE).stdout
    return out


def deflate(data):
    c = zlib.compressobj(5, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


class Zip:
    def __init__(self):
        self.data = bytearray()
        self.dir = []

    def add(self, name, raw, method=93, frames=1, size=None, crc=None,
            cut=0):
        packed = zstd(raw, frames) if method == 93 else deflate(raw)
        if cut:
            packed = packed[:-cut]
        crc = zlib.crc32(raw) if crc is None else crc
        size = len(raw) if size is None else size
        need = 63 if method == 93 else 20
        n = name.encode()
        head = struct.pack("<IHHHHHIIIHH", 0x04034B50, need, 0, method, 0,
                           0x5C21, crc, len(packed), size, len(n), 0)
        self.dir.append(struct.pack(
            "<IHHHHHHIIIHHHHHII", 0x02014B50, 0x0300 | need, need, 0,
            method, 0, 0x5C21, crc, len(packed), size, len(n), 0, 0, 0, 0,
            0o600 << 16, len(self.data)) + n)
        self.data += head + n + packed

    def write(self, path):
        at = len(self.data)
        cdir = b"".join(self.dir)
        end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(self.dir),
                          len(self.dir), len(cdir), at, 0)
        with open(path, "wb") as f:
            f.write(bytes(self.data) + cdir + end)


def main():
    samples = sorted(os.listdir(os.path.join(SRC, "samples")))
    z = Zip()
    for i, s in enumerate(samples):
        raw = open(os.path.join(SRC, "samples", s), "rb").read()
        z.add("samples/" + s, raw, frames=2 if i == 0 else 1)
    # the first sample written again, as a requeue does: this one stands
    first = open(os.path.join(SRC, "samples", samples[0]), "rb").read()
    z.add("samples/" + samples[0], first)
    z.add("header.json", open(os.path.join(SRC, "header.json"), "rb").read(),
          method=8)
    z.write("zstd.eval")

    z = Zip()
    z.add("header.json", open(os.path.join(SRC, "header.json"), "rb").read())
    z.add("samples/bomb_epoch_1.json", b" " * (300 << 20), size=1024)
    z.add("samples/cut_epoch_1.json", first, cut=4)
    z.add("samples/crc_epoch_1.json", first, crc=zlib.crc32(first) ^ 1)
    # a sample in Inspect's chunked layout (its converter's): said
    z.add("samples/9_epoch_1/sample.json", b'{"id": 9, "epoch": 1}')
    z.add("samples/9_epoch_1/messages/0.json", b"[]")
    z.add("samples/" + samples[0], first)
    z.write("zstd-bad.eval")


if __name__ == "__main__":
    sys.exit(main())
