#!/usr/bin/env python3
"""photosync download against curl (issue 27): the same images, from the same server, in the same run.

    python3 Benchmarks/download_bench.py                 # 2,000 images of 50-500 KB, release build
    python3 Benchmarks/download_bench.py --images 200 --binary .build/debug/photosync

`make bench` runs it too (bench.py's "Downloads" section and targets).

Serves N JPEG-signed images on 127.0.0.1 (a threaded HTTP/1.1 server in this process, so both
clients meet the same server), builds a catalog whose photos point at them (a file:// feed), then
times, each as a whole process with its peak RSS and CPU time (user + system) from Benchmarks/peak_rss
(see bench.py), in pairs (6 by default, each from a fresh copy of the catalog):
  1. `photosync download --jobs 8` into an empty folder;
  2. `curl --parallel --parallel-max 8` fetching the same URLs into another folder (the floor);
  3. `photosync download` again, everything present: it must make no request (the server counts).
Times are never asserted. Results are printed as a Markdown table.
"""
import argparse
import http.server
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import bench  # noqa: E402


class Images(http.server.ThreadingHTTPServer):
    daemon_threads = True
    # socketserver's default backlog is 5: eight connections opened at once had three SYNs
    # dropped and retried a second later by the kernel, a constant 1 s in every photosync run
    # (which opens its eight at once) and in some of curl's.
    request_queue_size = 64
    requests = 0


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        with lock:
            self.server.requests += 1
        super().do_GET()


lock = threading.Lock()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--images", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=6)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "photosync"))
    args = parser.parse_args()
    print("\n".join(report(measure(args.binary, args.images, args.repeat))))


def measure(binary, images, repeat=6):
    """The download rows: `repeat` pairs of (photosync, curl) runs on the same images, then the
    all-present run. Returns a dict for `report` (and bench.py's targets)."""
    work = tempfile.mkdtemp(prefix="photosync-download-bench-")
    try:
        return run(binary, images, repeat, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def serve(images, work):
    """N JPEG-signed images of 50-500 KB served on 127.0.0.1; returns (server, urls, total bytes)."""
    served = os.path.join(work, "served")
    os.makedirs(served)
    rng = random.Random(27)
    total = 0
    for index in range(images):
        size = rng.randint(50_000, 500_000)
        total += size
        with open(os.path.join(served, f"{index}.jpg"), "wb") as image:
            image.write(b"\xff\xd8\xff\xe0" + rng.randbytes(size - 4))
    server = Images(("127.0.0.1", 0), lambda *a, **k: Handler(*a, directory=served, **k))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    return server, [f"{base}/{index}.jpg" for index in range(images)], total


def run(binary, images, repeat, work):
    server, urls, total = serve(images, work)
    photos = [{"id": str(100000 + index), "owner": "1@N01", "ownername": "Bench", "title": "t", "dateupload": "1700000000",
               "url_l": url} for index, url in enumerate(urls)]
    feed = os.path.join(work, "feed.json")
    with open(feed, "w") as page:
        json.dump({"photos": {"page": 1, "pages": 1, "perpage": len(photos), "total": len(photos), "photo": photos}, "stat": "ok"}, page)
    env = bench.clean_env(os.path.join(work, "home"))
    fetched = os.path.join(work, "fetched.sqlite")
    fetch = bench.run([binary, "fetch", "--url", "file://" + feed, "--per-page", "500", "--db", fetched, "--quiet"], env, 600)
    assert fetch.status == 0, fetch
    config = os.path.join(work, "curl.conf")
    pairs = []
    for rep in range(repeat):
        db, files, curl_folder = (os.path.join(work, f"{name}-{rep}") for name in ("catalog.sqlite", "files", "curl"))
        shutil.copyfile(fetched, db)
        photosync = bench.run([binary, "download", "--jobs", "8", "--files", files, "--db", db, "--format", "json"], env, 1800)
        assert photosync.status == 0, photosync
        os.makedirs(curl_folder)
        with open(config, "w") as listing:
            for index, url in enumerate(urls):
                listing.write(f'url = "{url}"\noutput = "{curl_folder}/{index}.jpg"\n')
        curl = bench.run(["curl", "--silent", "--fail", "--parallel", "--parallel-max", "8", "--config", config], env, 1800)
        assert curl.status == 0, curl
        pairs.append((photosync, curl))
        bench.log(f"download {rep + 1}/{repeat}: photosync {photosync.wall:.2f} s ({photosync.cpu:.2f} s CPU), "
                  f"curl {curl.wall:.2f} s ({curl.cpu:.2f} s CPU)")
    before = server.requests
    present = bench.run([binary, "download", "--files", files, "--db", db, "--format", "json"], env, 600)
    assert present.status == 0, present
    server.shutdown()
    return {"images": images, "mib": total / 1024 / 1024, "pairs": pairs, "present": present, "present_requests": server.requests - before,
            "ratio": statistics.median(p.wall / c.wall for p, c in pairs)}


def report(d):
    """Markdown lines: the median pair, the ratio (median of the pairs' ratios), the all-present run.
    CPU is user + system: with the cores shared, it says more than wall time about the work done."""
    photosync, curl = sorted(d["pairs"], key=lambda pair: pair[0].wall)[len(d["pairs"]) // 2]
    cpu = [statistics.median(run.cpu for run in side) for side in zip(*d["pairs"])]
    return [f"| {d['images']} images, {d['mib']:.0f} MiB | wall s | CPU s (median) | peak RSS MiB |", "|---|---:|---:|---:|",
            f"| photosync download --jobs 8 | {photosync.wall:.2f} | {cpu[0]:.2f} | {photosync.rss_mib:.1f} |",
            f"| curl --parallel --parallel-max 8 | {curl.wall:.2f} | {cpu[1]:.2f} | {curl.rss_mib:.1f} |",
            f"| photosync download, all present ({d['present_requests']} requests) | {d['present'].wall:.2f} | {d['present'].cpu:.2f} | "
            f"{d['present'].rss_mib:.1f} |",
            "", f"Ratio photosync ÷ curl: **{d['ratio']:.2f}×** (median of {len(d['pairs'])} pairs, each photosync run followed by curl's)."]

if __name__ == "__main__":
    main()
