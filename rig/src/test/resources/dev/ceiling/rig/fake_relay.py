"""A stand-in relay for the rig's process tests: fast to start, scripted to misbehave.

Modes: ready (serves /health 200 and /metrics, prints a READY line), exit (prints a line and
exits with --exit-code), never (prints a line, never listens), stubborn (like ready but ignores
SIGTERM). --rig-id is accepted so the command line carries the rig id, as the rig requires.
"""
import argparse
import http.server
import signal
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int, default=0)
ap.add_argument("--rig-id", required=True)
ap.add_argument("--mode", default="ready")
ap.add_argument("--exit-code", type=int, default=0)
ap.add_argument("--audit", default="on")
ap.add_argument("--reset", action="store_true")
ap.add_argument("--limit", default="")
args, _ = ap.parse_known_args()

if args.mode == "exit":
    print("fake relay: cannot open database (scripted failure)", flush=True)
    sys.exit(args.exit_code)
if args.mode == "never":
    print("fake relay: warming up forever", flush=True)
    time.sleep(300)
    sys.exit(0)
if args.mode == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/health":
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
