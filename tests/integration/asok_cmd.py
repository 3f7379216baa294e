#!/usr/bin/python3
"""One admin-socket command, its reply on stdout:

  asok_cmd.py [--until-ops TEXT N] ASOK PREFIX
      e.g. asok_cmd.py run/ceph-osd.0.asok dump_historic_ops

What `ceph --admin-daemon ASOK PREFIX` does, without its cost: the CLI took
35 s for a 7.6 MB dump_historic_ops reply that this reads in about 1 s.
The protocol: the command as JSON and a NUL; the reply is a 4-byte
big-endian length and that many bytes.

--until-ops TEXT N: ask again (every 0.1 s, for 30 s at most) until the
reply's "ops" hold N ops whose description contains TEXT, then print that
reply; after 30 s print the last one (the caller's check then fails on
what is missing).  Ceph's op history is filled by a thread of its own
(OpHistoryServiceThread, src/common/TrackedOp.cc, in every release) that
takes the finished ops after a sleep of up to 256 ms when idle: an op
whose reply the client holds can be missing from a dump made just after.
"""
import argparse
import json
import socket
import struct
import sys
import time


def ask(path, prefix):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(120)
    s.connect(path)
    s.sendall(json.dumps({"prefix": prefix}).encode() + b"\0")
    head = s.recv(4, socket.MSG_WAITALL)
    if len(head) != 4:
        sys.exit(f"{path}: no reply to {prefix}")
    want = struct.unpack(">I", head)[0]
    parts, got = [], 0
    while got < want:
        chunk = s.recv(min(1 << 20, want - got))
        if not chunk:
            sys.exit(f"{path}: reply to {prefix} cut at {got} of {want} bytes")
        parts.append(chunk)
        got += len(chunk)
    s.close()
    return b"".join(parts)


def holds(reply, text):
    try:
        ops = json.loads(reply).get("ops", [])
    except ValueError:
        return 0
    return sum(1 for op in ops if text in op.get("description", ""))


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n")[2].strip())
    ap.add_argument("--until-ops", nargs=2, metavar=("TEXT", "N"))
    ap.add_argument("asok")
    ap.add_argument("prefix")
    a = ap.parse_args()
    reply = ask(a.asok, a.prefix)
    if a.until_ops:
        text, n = a.until_ops[0], int(a.until_ops[1])
        deadline = time.monotonic() + 30
        got = holds(reply, text)
        while got < n and time.monotonic() < deadline:
            time.sleep(0.1)
            reply = ask(a.asok, a.prefix)
            got = holds(reply, text)
        if got < n:
            print(f"asok_cmd.py: {a.prefix}: {got} of {n} ops with {text!r} after 30 s",
                  file=sys.stderr)
    sys.stdout.buffer.write(reply)


if __name__ == "__main__":
    main()
