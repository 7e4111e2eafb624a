#!/usr/bin/env python3
"""A tiny Flickr-like getRecent server for demos, end-to-end tests and benchmarks.

Answers GET /?...&page=P&per_page=N... (any path) with one page of JSON, either

    python3 Fixtures/serve_feed.py --fixtures Fixtures/feed [--port 0]
        serves DIR/recent-page-{P}.json; pages past the last fixture get an empty page
        (with the paging counters of page 1), as Flickr does; per_page is ignored;
    python3 Fixtures/serve_feed.py --generate 1000000 --seed 7 [--port 0]
        builds page P on demand with generate_feed.page(); per_page defaults to 100 and is
        capped at 500, like Flickr's; with --metadata each photo carries the extras photosync
        keeps (license, date taken, geo, last update, views, media, tags).

Either way method=flickr.photos.licenses.getInfo is answered with the generator's licenses.

With --tls-cert CERT --tls-key KEY it serves HTTPS with that certificate chain (PEM) instead of
HTTP; a client that refuses the certificate just ends its connection, the server goes on.

Binds 127.0.0.1 only. The first line on stdout is the port (useful with --port 0);
nothing else is logged. Bodies are gzipped when the request says Accept-Encoding: gzip.
Stops on SIGTERM or SIGINT.
"""
import argparse
import gzip
import json
import os
import signal
import ssl
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate_feed  # noqa: E402  (sits beside this file)

DEFAULT_PER_PAGE = 100
MAX_PER_PAGE = 500


def positive_int(values, default):
    try:
        return max(1, int(values[0])) if values else default
    except ValueError:
        return default


class FixturePages:
    def __init__(self, directory):
        self.directory = directory
        with open(self.path(1), "rb") as first:
            self.counters = json.load(first)["photos"]

    def path(self, page):
        return os.path.join(self.directory, f"recent-page-{page}.json")

    def body(self, page, per_page):
        try:
            with open(self.path(page), "rb") as fixture:
                return fixture.read()
        except FileNotFoundError:
            empty = {key: self.counters[key] for key in ("pages", "perpage", "total")}
            return generate_feed.dumps({"photos": {"page": page, **empty, "photo": []}, "stat": "ok"})


class GeneratedPages:
    def __init__(self, photos, seed, with_metadata=False):
        self.photos = photos
        self.seed = seed
        self.with_metadata = with_metadata

    def body(self, page, per_page):
        document = generate_feed.page(page, self.photos, min(per_page, MAX_PER_PAGE), self.seed, self.with_metadata)
        return generate_feed.dumps(document)


def send_json(handler, body, gzipped):
    """Answers 200 with a JSON body, already gzipped when `gzipped`."""
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json; charset=utf-8")
    if gzipped:
        handler.send_header("Content-Encoding", "gzip")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def handler_for(pages, delay=0.0):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            if delay:
                time.sleep(delay)
            query = parse_qs(urlsplit(self.path).query)
            if query.get("method") == ["flickr.photos.licenses.getInfo"]:
                return send_json(self, generate_feed.dumps(generate_feed.licenses()), False)
            body = pages.body(positive_int(query.get("page"), 1), positive_int(query.get("per_page"), DEFAULT_PER_PAGE))
            gzipped = "gzip" in self.headers.get("Accept-Encoding", "")
            send_json(self, gzip.compress(body, compresslevel=5) if gzipped else body, gzipped)

        def log_message(self, format, *args):
            pass

    return Handler


def main(argv=None):
    parser = argparse.ArgumentParser(description="Serve Flickr-shaped getRecent pages on 127.0.0.1.")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--fixtures", metavar="DIR", help="serve DIR/recent-page-{P}.json")
    source.add_argument("--generate", metavar="N", type=int, help="serve a generated feed of N photos")
    parser.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    parser.add_argument("--metadata", action="store_true",
                        help="generated photos carry license, date taken, geo, last update, views, media and tags")
    parser.add_argument("--port", type=int, default=0, help="port, 0 for any free one (default)")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait before each answer (default 0)")
    parser.add_argument("--tls-cert", metavar="PEM", help="serve HTTPS with this certificate (chain)")
    parser.add_argument("--tls-key", metavar="PEM", help="the private key of --tls-cert")
    args = parser.parse_args(argv)
    if bool(args.tls_cert) != bool(args.tls_key):
        parser.error("--tls-cert and --tls-key go together")
    pages = FixturePages(args.fixtures) if args.fixtures else GeneratedPages(args.generate, args.seed, args.metadata)

    serve(handler_for(pages, args.delay), args.port, tls=(args.tls_cert, args.tls_key) if args.tls_cert else None)


class TLSServer(ThreadingHTTPServer):
    """Does each handshake on the connection's own thread, so a client that never finishes
    one cannot stall the accept loop; a refused handshake only ends that connection."""

    context = None

    def finish_request(self, request, client_address):
        try:
            request = self.context.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError):
            return
        super().finish_request(request, client_address)


def serve(handler, port, tls=None):
    """Serves on 127.0.0.1:port (0: any free port), prints the port first, stops on SIGTERM/SIGINT.

    `tls` is (certificate, key) PEM paths for HTTPS."""
    if tls:
        server = TLSServer(("127.0.0.1", port), handler)
        server.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server.context.load_cert_chain(*tls)
    else:
        server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    for stop in (signal.SIGTERM, signal.SIGINT):  # set SIGINT too: a background job inherits it ignored
        signal.signal(stop, lambda *_: sys.exit(0))
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
