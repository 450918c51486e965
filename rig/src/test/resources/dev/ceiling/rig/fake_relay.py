"""A stand-in relay for the rig's process tests: fast to start, scripted to misbehave.

Modes: ready (serves /health 200 and /metrics, prints a READY line), exit (prints a line and
exits with --exit-code), never (prints a line, never listens), stubborn (like ready but ignores
SIGTERM). --rig-id is accepted so the command line carries the rig id, as the rig requires.
With --upstream HOST:PORT, GET /link?n=K makes K sequential 4-byte exchanges with an echo service
there on one connection and answers "ok K".
"""
import argparse
import http.server
import signal
import socket
import sys
import time
import urllib.parse

ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int, default=0)
ap.add_argument("--rig-id", required=True)
ap.add_argument("--mode", default="ready")
ap.add_argument("--exit-code", type=int, default=0)
ap.add_argument("--audit", default="on")
ap.add_argument("--reset", action="store_true")
ap.add_argument("--limit", default="")
ap.add_argument("--upstream", default="")
ap.add_argument("--also-listen", default="",
                help="HOST: a child process also listens on HOST (an ephemeral port) until this"
                     " relay exits, as a forked worker would")
args, _ = ap.parse_known_args()

# The child listens, says so on its stdout, and exits once its parent (this relay) is gone, so
# stopping the relay by its pid leaves nothing behind.
CHILD = """
import os, socket, sys, time
parent = int(sys.argv[2])
s = socket.socket(socket.AF_INET6 if ':' in sys.argv[1] else socket.AF_INET)
s.bind((sys.argv[1], 0))
s.listen(1)
print('listening', flush=True)
while os.getppid() == parent:
    time.sleep(0.1)
"""
if args.also_listen:
    import os
    import subprocess
    child = subprocess.Popen([sys.executable, "-c", CHILD, args.also_listen, str(os.getpid())],
                             stdout=subprocess.PIPE, text=True)
    child.stdout.readline()

if args.mode == "exit":
    print("fake relay: cannot open database (scripted failure)", flush=True)
    sys.exit(args.exit_code)
if args.mode == "never":
    print("fake relay: warming up forever", flush=True)
    time.sleep(300)
    sys.exit(0)
if args.mode == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def link(n):
    host, _, port = args.upstream.rpartition(":")
    with socket.create_connection((host.strip("[]"), int(port)), timeout=30) as s:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for i in range(n):
            s.sendall(b"p%03d" % i)
            got = b""
            while len(got) < 4:
                chunk = s.recv(4 - len(got))
                if not chunk:
                    raise IOError("upstream closed")
                got += chunk
            if got != b"p%03d" % i:
                raise IOError("upstream answered %r" % got)
    return ("ok %d\n" % n).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        if url.path == "/link" and args.upstream:
            body = link(int(urllib.parse.parse_qs(url.query)["n"][0]))
        elif self.path == "/health":
            body = b"ok\n"
        elif self.path == "/metrics":
            body = ("fake_audit_rows %d\n" % (1 if args.audit == "on" else 0)).encode()
        else:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


server = http.server.HTTPServer(("127.0.0.1", args.port), Handler)
print("READY port=%d audit=%s reset=%s limit=%s" % (args.port, args.audit, args.reset, args.limit),
      flush=True)
server.serve_forever()
