#!/usr/bin/env python3
"""A misbehaving HTTP client for tests/integration/test_http_abuse.sh.

From one loopback source address it tries to hold CONNS half-open
connections to 127.0.0.1:PORT at once (silent, half a request line, a
slowloris trickle of headers, a request whose announced or chunked body
trickles in, or with --hold keepalive a complete GET /metrics whose
connection then idles, as a client between two scrapes), and beside them keeps SHOTS more connections busy with
one-shot abuse: random bytes, oversized request lines and headers, bogus
Content-Length, chunked bodies, unknown HTTP versions and path tricks.
Whenever the server closes one, another takes its slot after a short pause.
It stops on SIGTERM or SIGINT (the caller decides how long the abuse lasts),
or by itself after DURATION seconds or MAX_CONNECTS connections (0: no
limit), whichever comes first; then it closes everything, prints one JSON
summary line ("stopped_by": "signal", "duration" or "max_connects") and
exits 0.  Loopback addresses only.
"""
import argparse
import errno
import ipaddress
import json
import os
import random
import selectors
import signal
import socket
import sys
import time

PATHS = [
    b"/../../etc/passwd", b"//metrics", b"/metrics/../metrics", b"/%2e%2e/%2e%2e/etc/passwd",
    b"/metrics%00.html", b"*", b"http://evil.example/metrics", b"/" + b"./" * 3000,
    b"/metrics?" + b"a" * 8000, b"/METRICS", b"/metrics#frag", b"\\metrics", b"/metrics/",
    b"/%6d%65%74%72%69%63%73", b"/metrics;x=1",
]


def req(path=b"/metrics", method=b"GET", headers=b"", version=b"HTTP/1.1", end=True):
    r = method + b" " + path + b" " + version + b"\r\nHost: 127.0.0.1\r\n" + headers
    return r + (b"\r\n" if end else b"")


# kind -> (bytes sent at connect, bytes trickled every TRICKLE_S or None)
def payload(kind, rnd):
    if kind == "silent":
        return b"", None
    if kind == "keepalive":
        return req(), None
    if kind == "half_line":
        return b"GET /metr", None
    if kind == "slowloris":
        return req(end=False), b"X"
    if kind == "random":
        return os.urandom(rnd.randint(64, 4096)), None
    if kind == "long_line":
        return b"GET /" + b"a" * 100000, None
    if kind == "long_header":
        return req(headers=b"X-Big: " + b"b" * 70000 + b"\r\n"), None
    if kind == "many_headers":
        return req(headers=b"".join(b"X-%d: y\r\n" % i for i in range(3000))), None
    if kind == "huge_cl":
        return req(headers=b"Content-Length: 99999999999999999999999999\r\n"), None
    if kind == "negative_cl":
        return req(headers=b"Content-Length: -1\r\n"), b"z"
    if kind == "two_cl":
        return req(headers=b"Content-Length: 5\r\nContent-Length: 500000\r\n"), b"z"
    if kind == "get_body_trickle":
        return req(headers=b"Content-Length: 1000000\r\n"), b"z"
    if kind == "post_body_trickle":
        return req(method=b"POST", headers=b"Content-Length: 1000000\r\n"), b"z"
    if kind == "chunked_bogus":
        return req(headers=b"Transfer-Encoding: chunked\r\n") + b"zz\r\nhello\r\n", b"z"
    if kind == "chunked_huge":
        return req(headers=b"Transfer-Encoding: chunked\r\n") + b"ffffffffffffffffffff\r\n", b"z"
    if kind == "bad_version":
        return req(version=b"HTTP/9.9"), None
    if kind == "path_trick":
        return req(path=rnd.choice(PATHS)), None
    raise ValueError(kind)


# hold: what a connection slot can be kept busy with; shot: answered at once
HOLD = ["silent", "half_line", "slowloris", "get_body_trickle"]
HOLD_KINDS = HOLD + ["keepalive"]
SHOT = ["random", "long_line", "long_header", "many_headers", "huge_cl", "negative_cl",
        "two_cl", "post_body_trickle", "chunked_bogus", "chunked_huge", "bad_version",
        "path_trick"]
TRICKLE_S = 0.5


class Conn:
    def __init__(self, kind, sock, now):
        self.kind, self.sock = kind, sock
        self.out = b""
        self.trickle = None
        self.next_trickle = now + TRICKLE_S
        self.connected = False
        self.first = b""        # the first bytes the server sent
        self.opened = now


def loopback(a):
    if not ipaddress.ip_address(a).is_loopback:
        sys.exit("http_abuse.py: %s is not a loopback address; refusing" % a)
    return a


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--dst", type=loopback, default="127.0.0.1")
    ap.add_argument("--src", type=loopback, default="127.0.0.2")
    ap.add_argument("--conns", type=int, default=300)
    ap.add_argument("--hold", default=",".join(HOLD),
                    help="comma-separated kinds the CONNS connections use, of: "
                    + " ".join(HOLD_KINDS))
    ap.add_argument("--shots", type=int, default=20)
    ap.add_argument("--duration", type=float, default=12)
    ap.add_argument("--max-connects", type=int, default=20000)
    ap.add_argument("--reconnect-pause", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=15)
    a = ap.parse_args()
    hold = a.hold.split(",")
    if not hold or any(k not in HOLD_KINDS for k in hold):
        sys.exit("http_abuse.py: --hold takes kinds of: " + " ".join(HOLD_KINDS))
    signal.alarm(int(a.duration) + 30)   # whatever happens, this process ends
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append("signal"))
    signal.signal(signal.SIGINT, lambda *_: stop.append("signal"))
    rnd = random.Random(a.seed)
    sel = selectors.DefaultSelector()
    conns = {}                    # fd -> Conn
    pending = []                  # times at which a slot may reconnect
    st = {"connects": 0, "connect_errors": 0, "closed_by_server": 0,
          "closed_without_answer": 0, "status": {}, "by_kind": {},
          "max_open": 0, "max_established": 0, "max_holding": 0, "served_200": 0}
    t0 = time.monotonic()
    end = t0 + a.duration
    nkind = {"hold": 0, "shot": 0}

    def open_one(now, pool):
        kinds = hold if pool == "hold" else SHOT
        kind = kinds[nkind[pool] % len(kinds)]
        nkind[pool] += 1
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.bind((a.src, 0))
            err = s.connect_ex((a.dst, a.port))
        except OSError as e:
            err = e.errno
        st["connects"] += 1
        if err not in (0, errno.EINPROGRESS):
            st["connect_errors"] += 1
            s.close()
            pending.append((now + a.reconnect_pause, pool))
            return
        c = Conn(kind, s, now)
        c.pool = pool
        c.out, c.trickle = payload(kind, rnd)
        conns[s.fileno()] = c
        sel.register(s, selectors.EVENT_READ | selectors.EVENT_WRITE, c)
        st["by_kind"].setdefault(kind, 0)
        st["by_kind"][kind] += 1

    def close_one(c, now, by_server):
        sel.unregister(c.sock)
        del conns[c.sock.fileno()]
        c.sock.close()
        if by_server:
            st["closed_by_server"] += 1
            line = c.first.split(b"\r\n")[0]
            if line.startswith(b"HTTP/"):
                code = line.split(b" ")[1].decode("latin1") if b" " in line else "?"
                st["status"][code] = st["status"].get(code, 0) + 1
            else:
                st["closed_without_answer"] += 1
            pending.append((now + (a.reconnect_pause if c.pool == "hold" else 0.02), c.pool))

    for _ in range(a.conns):
        open_one(time.monotonic(), "hold")
    for _ in range(a.shots):
        open_one(time.monotonic(), "shot")
    while True:
        now = time.monotonic()
        if stop:
            break
        if now >= end:
            stop.append("duration")
            break
        if a.max_connects and st["connects"] >= a.max_connects:
            stop.append("max_connects")
            break
        pending.sort()
        while pending and pending[0][0] <= now and not (a.max_connects and
                                                         st["connects"] >= a.max_connects):
            open_one(now, pending.pop(0)[1])
        for key, ev in sel.select(timeout=0.05):
            c = key.data
            if c.sock.fileno() < 0:
                continue
            if ev & selectors.EVENT_WRITE:
                if not c.connected:
                    err = c.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                    if err:
                        st["connect_errors"] += 1
                        close_one(c, now, True)
                        continue
                    c.connected = True
                try:
                    n = c.sock.send(c.out) if c.out else 0
                    c.out = c.out[n:]
                except BlockingIOError:
                    pass
                except OSError:
                    close_one(c, now, True)
                    continue
                if not c.out:
                    sel.modify(c.sock, selectors.EVENT_READ, c)
            if ev & selectors.EVENT_READ:
                try:
                    b = c.sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    b = b""
                if b:
                    if len(c.first) < 256:
                        c.first += b
                else:
                    if c.first.startswith(b"HTTP/1.1 200"):
                        st["served_200"] += 1
                    close_one(c, now, True)
        for c in list(conns.values()):   # slow trickles
            if c.connected and c.trickle and now >= c.next_trickle and not c.out:
                c.next_trickle = now + TRICKLE_S
                try:
                    c.sock.send(c.trickle)
                except OSError:
                    pass
        st["max_open"] = max(st["max_open"], len(conns))
        st["max_established"] = max(st["max_established"],
                                    sum(c.connected for c in conns.values()))
        st["max_holding"] = max(st["max_holding"],
                                sum(c.pool == "hold" for c in conns.values()))
    st["open_at_end"] = len(conns)
    st["established_at_end"] = sum(c.connected for c in conns.values())
    st["stopped_by"] = stop[0]
    for c in list(conns.values()):
        close_one(c, time.monotonic(), False)
    st["seconds"] = round(time.monotonic() - t0, 3)
    print(json.dumps(st, sort_keys=True))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
