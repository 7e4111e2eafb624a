#!/usr/bin/env python3
"""The benchmark's feed server: `Fixtures/serve_feed.py` semantics over a pre-generated cache.

Serves page P of a feed made by feedcache.py (byte for byte what `serve_feed.py --generate N`
would send, gzipped once in advance, so the server costs almost no CPU while photosync is timed)
and appends one line per request to --log: "<time.monotonic()> <page>". Those timestamps give the
import's per-chunk throughput (photosync downloads page P+1 while it saves page P).

    python3 Benchmarks/feed_server.py --dir Benchmarks/.work/cache/feed-10000-1-500 --log requests.log
First stdout line: the port. Stops on SIGTERM/SIGINT.
"""
import argparse
import gzip
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Fixtures"))
import generate_feed  # noqa: E402
import serve_feed  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    photos, seed, per_page, pages = (int(x) for x in open(os.path.join(args.dir, "DONE")).read().split())
    log = open(args.log, "a", buffering=1)
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            query = parse_qs(urlsplit(self.path).query)
            try:
                page = max(1, int(query.get("page", ["1"])[0]))
                asked = max(1, int(query.get("per_page", ["100"])[0]))
            except ValueError:
                page, asked = 1, 100
            with lock:
                log.write(f"{time.monotonic():.6f} {page}\n")
            if min(asked, 500) != per_page:
                self.send_error(400, f"this cache holds per_page={per_page}")
                return
            path = os.path.join(args.dir, f"page-{page:05d}.json.gz")
            if os.path.exists(path):
                with open(path, "rb") as f:
                    body = f.read()
            else:  # past the end: an empty page, as the generator makes it
                body = gzip.compress(generate_feed.dumps(generate_feed.page(page, photos, per_page, seed)), 5)
            gzipped = "gzip" in self.headers.get("Accept-Encoding", "")
            serve_feed.send_json(self, body if gzipped else gzip.decompress(body), gzipped)

        def log_message(self, format, *a):
            pass

    serve_feed.serve(Handler, args.port)


if __name__ == "__main__":
    main()
