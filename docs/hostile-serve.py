#!/usr/bin/env python3
"""A hostile run against `matchbox serve`: floods of idle, reconnecting and slow
connections from one loopback address or several, impossible and malformed bodies and
heads, pipelining. Each try measures the teacher's token-bearing requests (from
127.0.0.1) during it, and checks the server is still up. Prints a line per try and a
table by kind. Usage: hostile.py PATH/TO/matchbox"""
import resource, socket, subprocess, sys, threading, time, selectors, json, statistics, random

BIN = sys.argv[1]
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 16384), hard))

def start():
    p = subprocess.Popen([BIN, "serve", "--preset", "hexapawn", "--port", "0", "--seed", "7"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in p.stdout:
        if "?token=" in line:
            url = line.split("http://")[1].strip()
            host, rest = url.split("/?token=")
            h, port = host.rsplit(":", 1)
            return p, (h, int(port)), rest.strip()
    raise SystemExit("no banner")

proc, ADDR, TOKEN = start()

def teacher(timeout=10.0):
    t0 = time.monotonic()
    try:
        s = socket.create_connection(ADDR, timeout=timeout)
        s.sendall(f"POST /api/game/new HTTP/1.1\r\nhost: 127.0.0.1\r\nx-matchbox-token: {TOKEN}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n".encode())
        data = b""
        while True:
            b = s.recv(65536)
            if not b: break
            data += b
        s.close()
        ok = data.startswith(b"HTTP/1.1 200")
        return time.monotonic() - t0, ok
    except OSError:
        return time.monotonic() - t0, False

class Probe(threading.Thread):
    """The teacher asking every 100 ms while an attack goes on."""
    def __init__(self):
        super().__init__(daemon=True); self.stop = False; self.times = []; self.fails = 0
    def run(self):
        while not self.stop:
            t, ok = teacher()
            self.times.append(t)
            if not ok: self.fails += 1
            time.sleep(0.1)

def flood(n, sources, seconds, reconnect, head=b""):
    """n connections from `sources`, held `seconds`, opened again when closed."""
    sel = selectors.DefaultSelector()
    made = 0
    def open_one(i):
        nonlocal made
        s = socket.socket(); s.setblocking(False)
        try:
            s.bind((sources[i % len(sources)], 0))
            s.connect_ex(ADDR)
        except OSError:
            s.close(); return
        made += 1
        sel.register(s, selectors.EVENT_READ | selectors.EVENT_WRITE, (i, False))
    for i in range(n): open_one(i)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for key, ev in sel.select(timeout=0.05):
            s = key.fileobj; i, sent = key.data
            if ev & selectors.EVENT_WRITE and not sent:
                if head:
                    try: s.send(head)
                    except OSError: pass
                sel.modify(s, selectors.EVENT_READ, (i, True)); continue
            if ev & selectors.EVENT_READ:
                try: b = s.recv(4096)
                except OSError: b = b""
                if not b:
                    sel.unregister(s); s.close()
                    if reconnect: open_one(i)
    for key in list(sel.get_map().values()):
        key.fileobj.close()
    sel.close()
    return made

def slow(n, sources, seconds):
    socks = []
    for i in range(n):
        s = socket.socket()
        try:
            s.bind((sources[i % len(sources)], 0)); s.settimeout(1); s.connect(ADDR); s.setblocking(False)
            socks.append(s)
        except OSError:
            s.close()
    msg = b"GET /api/game HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: " + b"a" * 100
    end = time.monotonic() + seconds; k = 0
    while time.monotonic() < end:
        for s in socks:
            try: s.send(msg[k % len(msg):k % len(msg) + 1])
            except OSError: pass
        k += 1; time.sleep(0.5)
    for s in socks: s.close()
    return len(socks)

def one(raw, read_timeout=5.0):
    """Sends raw bytes; the first line answered and the time it took."""
    t0 = time.monotonic()
    try:
        s = socket.create_connection(ADDR, timeout=read_timeout)
        s.sendall(raw)
        data = b""
        while b"\r\n" not in data:
            b = s.recv(4096)
            if not b: break
            data += b
        s.close()
        return data.split(b"\r\n")[0].decode("latin1"), time.monotonic() - t0
    except OSError as e:
        return f"({type(e).__name__})", time.monotonic() - t0

results = []  # (kind, description, held, teacher_worst, extra)

def alive():
    return proc.poll() is None

def attempt(kind, desc, fn):
    probe = Probe(); probe.start()
    extra = fn()
    probe.stop = True; probe.join()
    worst = max(probe.times) if probe.times else 0
    t, ok = teacher()
    held = alive() and ok and probe.fails == 0 and worst < 1.0
    results.append((kind, desc, held, worst, len(probe.times), extra))
    print(f"{'held' if held else 'FAILED'} {kind}: {desc}: teacher worst {worst*1000:.0f} ms over {len(probe.times)} requests; {extra}", flush=True)

ADDRS = lambda k: [f"127.0.0.{i}" for i in range(2, 2 + k)]

HALF = b'GET / HTTP/1.1\r\nx: '
# Floods: held idle, idle reconnecting, half a head reconnecting.
for n in (250, 500, 1100, 2000, 3000):
    for k in (1, 5, 20):
        for mode in ("idle", "reconnect", "half-head"):
            secs = 6.0 if (n == 2000 and mode == "reconnect") else 2.5
            attempt("flood", f"{n} {mode} from {k} address(es), {secs} s",
                    lambda n=n, k=k, mode=mode, secs=secs: str(flood(n, ADDRS(k), secs, mode != 'idle', HALF if mode == 'half-head' else b'')) + " connections made")
# Slow heads.
for n in (50, 300, 1000):
    for k in (1, 20):
        attempt("slow", f"{n} heads a byte per 0.5 s from {k} address(es)", lambda n=n, k=k: f"{slow(n, ADDRS(k), 3.0)} held")
# Impossible and malformed lengths.
lengths = ["1000000000000000", "9223372036854775807", "18446744073709551615", "4097",
           "1000000000000000000000000000000", "-1", "abc", "4097, 4097", " 10000000"]
for path in ("/api/game/move", "/api/train", "/", "/api/reset", "/api/settings", "/api/game/undo"):
    for cl in lengths:
        def f(cl=cl, path=path):
            line, t = one(f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\nx-matchbox-token: {TOKEN}\r\ncontent-length: {cl}\r\n\r\n{{".encode())
            return f"{line!r} in {t*1000:.0f} ms" + ("" if t < 1.0 else " SLOW")
        attempt("length", f"POST {path} content-length {cl}", f)
    def f(path=path):
        line, t = one(f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ntransfer-encoding: chunked\r\n\r\nFFFFFFFFFFFF\r\n".encode())
        return f"{line!r} in {t*1000:.0f} ms"
    attempt("length", f"POST {path} chunked, a chunk of 2^48 bytes announced", f)
# Malformed heads.
malformed = {
    "garbage": bytes(random.Random(1).getrandbits(8) for _ in range(2000)),
    "NUL in path": b"GET /\x00 HTTP/1.1\r\nhost: a\r\n\r\n",
    "100 KB header line": b"GET / HTTP/1.1\r\nx: " + b"a" * 100_000 + b"\r\n\r\n",
    "10,000 headers": b"GET / HTTP/1.1\r\n" + b"x: y\r\n" * 10_000 + b"\r\n",
    "HTTP/2 preface": b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    "TLS hello": bytes.fromhex("160301020001") + b"\x00" * 200,
    "HTTP/0.9": b"GET /\r\n",
    "bad method": b"G\xffT / HTTP/1.1\r\n\r\n",
    "absolute URI elsewhere": b"GET http://evil.example/api/game HTTP/1.1\r\nhost: evil.example\r\n\r\n",
    "long path": b"GET /" + b"a" * 60_000 + b" HTTP/1.1\r\n\r\n",
    "bare LF": b"GET / HTTP/1.1\nhost: a\n\n",
    "CR only": b"GET / HTTP/1.1\rhost: a\r\r",
    "header without colon": b"GET / HTTP/1.1\r\nhost\r\n\r\n",
    "two hosts": b"GET / HTTP/1.1\r\nhost: a\r\nhost: b\r\n\r\n",
    "upgrade websocket": b"GET / HTTP/1.1\r\nhost: 127.0.0.1\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n",
    "expect 100 huge": b"POST /api/game/move HTTP/1.1\r\nhost: 127.0.0.1\r\nexpect: 100-continue\r\ncontent-length: 99999999\r\n\r\n",
    "CL and TE": b"POST /api/game/move HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n",
    "version 1.7": b"GET / HTTP/1.7\r\n\r\n",
    "method 10 KB": b"A" * 10_000 + b" / HTTP/1.1\r\n\r\n",
    "token 10 KB": b"POST /api/game/new HTTP/1.1\r\nhost: 127.0.0.1\r\nx-matchbox-token: " + b"a" * 10_000 + b"\r\ncontent-length: 0\r\n\r\n",
    "JSON nested 3000": b"POST /api/game/move HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 4000\r\n\r\n" + b"[" * 2000 + b"]" * 2000,
    "pipelined 1000 GETs": b"GET /api/game HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n" * 1000,
    "pipelined 200 POSTs with token": (f"POST /api/game/new HTTP/1.1\r\nhost: 127.0.0.1\r\nx-matchbox-token: {TOKEN}\r\ncontent-length: 0\r\n\r\n" * 200).encode(),
}
for name, raw in malformed.items():
    for rep in range(3):
        def f(raw=raw):
            line, t = one(raw)
            return f"{line!r} in {t*1000:.0f} ms"
        attempt("malformed", f"{name} (#{rep + 1})", f)
# A slow body, pipelining on the flood's own connections, and the state after all.
attempt("slow body", "content-length 100, a byte per 0.5 s, 32 connections", lambda: f"{slow(32, ['127.0.0.2'], 3.0)} held")

proc.send_signal(2); code = proc.wait(timeout=30)
kinds = {}
for kind, desc, held, worst, n, extra in results:
    k = kinds.setdefault(kind, [0, 0, 0.0, 0])
    k[0] += 1; k[1] += held; k[2] = max(k[2], worst); k[3] += n
print("\nkind | tries | held | teacher's requests | worst answer")
for kind, (tries, held, worst, n) in kinds.items():
    print(f"{kind} | {tries} | {held} | {n} | {worst*1000:.0f} ms")
print(f"total {len(results)} tries, {sum(r[2] for r in results)} held; serve exited {code} on Ctrl-C")
