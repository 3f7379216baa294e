#!/usr/bin/python3
"""One admin-socket command, its reply on stdout:

  asok_cmd.py ASOK PREFIX      e.g. asok_cmd.py run/ceph-osd.0.asok dump_historic_ops

What `ceph --admin-daemon ASOK PREFIX` does, without its cost: the CLI took
35 s for a 7.6 MB dump_historic_ops reply that this reads in about 1 s.
The protocol: the command as JSON and a NUL; the reply is a 4-byte
big-endian length and that many bytes.
"""
import json
import socket
import struct
import sys


def main(path, prefix):
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
    sys.stdout.buffer.write(b"".join(parts))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
