#!/usr/bin/env python3
"""`photosync serve` under load (issue 28): 20 clients in parallel on a catalog, p99 and RSS.

    python3 Benchmarks/serve_bench.py --db CATALOG [--binary .build/release/photosync] [--requests 1000]

bench.py runs it on its largest catalog (`make bench`: 1M photos). It starts `serve --port 0` on the
catalog with a fresh cache folder and waits until serve's search index is built (timed, and its
size reported), then for each target -- the prolific photographer's first page, their page 100 (reached by
following `rel=next` links: keyset cursors), `/search?q=` (a common word, a rare one, one no title
has), `/api/photos?limit=100` -- loads it, after a 2 s warm-up, with
CLIENTS keep-alive connections: with `wrk` (Debian's; `make bench` installs it) for 10 s a target,
else with CLIENTS Python threads sending REQUESTS requests in all (bounded in count and time,
loopback only; the Python client's own cost is in its latencies, so they are conservative). Each
row also has the server's CPU time per request (/proc/PID/stat), steadier than latency on a shared
machine. The server's peak RSS is its VmHWM.
"""
import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

TARGET_P99_MS, TARGET_RSS_MIB = 50.0, 100.0


# What the last run's server said of its search index: the line, build seconds, file size.
INDEX_REPORT = {}


def start_server(binary, db, env, index_timeout_s=1800):
    """serve on a fresh cache folder (so its search index is built, and timed), once the index is
    ready: searches read every title until then."""
    beside = None if "://" in db else os.path.dirname(os.path.abspath(db))  # a PostgreSQL URL: the system's temporary folder
    cache = tempfile.mkdtemp(prefix="serve-bench-cache-", dir=beside)
    env = dict(env, XDG_CACHE_HOME=cache)
    started = time.monotonic()
    process = subprocess.Popen([binary, "serve", "--port", "0", "--db", db], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        process.kill()
        sys.exit(f"serve did not start: {line}{process.stderr.read()[:500]}")
    ready = threading.Event()

    def read_stderr():
        for text in process.stderr:
            if "search index" in text and not ready.is_set():
                INDEX_REPORT.update(line=text.strip(), seconds=time.monotonic() - started, bytes=folder_bytes(cache),
                                    cpu=cpu_seconds(process.pid))
                ready.set()
    threading.Thread(target=read_stderr, daemon=True).start()
    if not ready.wait(index_timeout_s):
        INDEX_REPORT.update(line="not ready in time: searches read every title")
    return process, int(match.group(1)), cache


def folder_bytes(folder):
    return sum(os.path.getsize(os.path.join(folder, root, name)) for root, _, names in os.walk(folder) for name in names)


def get(port, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read().decode()
    connection.close()
    return response.status, body


def page_path(port, first, pages):
    """The path of page `pages` (1-based), following rel=next from `first`."""
    path = first
    for _ in range(pages - 1):
        status, body = get(port, path)
        match = re.search(r'<a rel="next" href="([^"]+)"', body)
        if status != 200 or not match:
            return None
        path = match.group(1).replace("&amp;", "&")
    return path


def load(port, path, clients, requests, deadline_s=120):
    """`requests` GETs of `path` from `clients` threads on keep-alive connections: latencies (ms), failures."""
    latencies, failures, lock = [], [0], threading.Lock()
    per_client = [requests // clients + (1 if i < requests % clients else 0) for i in range(clients)]
    stop_at = time.monotonic() + deadline_s

    def client(count):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine, bad = [], 0
        for _ in range(count):
            if time.monotonic() > stop_at:
                bad += 1
                continue
            start = time.perf_counter()
            try:
                connection.request("GET", path)
                response = connection.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException):
                ok = False
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            mine.append((time.perf_counter() - start) * 1000)
            bad += 0 if ok else 1
        connection.close()
        with lock:
            latencies.extend(mine)
            failures[0] += bad

    threads = [threading.Thread(target=client, args=(n,)) for n in per_client]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, failures[0]


WRK_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def load_wrk(port, path, clients, seconds):
    """`wrk` (Debian's, C and epoll: the client costs next to nothing) with `clients` keep-alive
    connections on two threads for `seconds`: requests, median, p99 and max (ms), failures."""
    out = subprocess.run(["wrk", "-t2", f"-c{clients}", f"-d{seconds}s", "--timeout", "30s", "--latency",
                          f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True, timeout=seconds + 120).stdout

    def ms(pattern):
        match = re.search(pattern + r"\s+([\d.]+)(us|ms|s|m)\b", out)
        return float(match.group(1)) * WRK_UNITS[match.group(2)] if match else float("nan")

    done = re.search(r"(\d+) requests in", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    failures = (sum(map(int, errors.groups())) if errors else 0) + (int(bad.group(1)) if bad else 0)
    max_ms = re.search(r"Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s|m)", out)
    count = int(done.group(1)) if done else 0
    if count == 0:  # none answered in time: a failure, not a p99 of 0
        return {"requests": 0, "median": float("nan"), "p99": float("nan"), "max": float("nan"), "failures": max(clients, failures)}
    return {"requests": count, "median": ms(" 50%"), "p99": ms(" 99%"),
            "max": float(max_ms.group(1)) * WRK_UNITS[max_ms.group(2)] if max_ms else float("nan"), "failures": failures}


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))]


def peak_rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid):
    """The process's user + system CPU time so far (/proc/PID/stat), steadier than latency on a shared machine."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# A word no title has: without the search index every title and subtitle is read; with it, none.
RARE_WORD = "zzqx"
# Camera file names the benchmark's titles carry (IMG_9288, _MG_3999): on its 1M catalog 670 and
# 65 photos hold these, fewer than the index's 2,000 candidates, so it narrows both.
FEW_WORD, RARE_FILE_NAME = "_mg_39", "img_928"
WRK_SECONDS = 10


def run(binary, db, env, clients=20, requests=1000, log=lambda m: None):
    """The serve rows: a list of dicts (name, requests, median, p99, max, failures, server CPU ms a
    request) and the peak RSS."""
    process, port, cache = start_server(binary, db, env)
    try:
        status, body = get(port, "/api/photographers?sort=photos&limit=1")
        prolific = json.loads(body)[0]["name"]
        first = "/photographers/" + urllib.parse.quote(prolific, safe="")
        word = re.search(r"[A-Za-z]{4,}", json.loads(get(port, first.replace("/photographers/", "/api/photos?sort=uploaded&limit=1&photographer="))[1])[0]["title"])
        targets = [(f"first page of the prolific photographer ({prolific})", first),
                   ("their page 100", page_path(port, first, 100)),
                   (f"/search?q={word.group(0).lower() if word else 'a'}", "/search?q=" + (word.group(0).lower() if word else "a")),
                   ("/api/photos?limit=100&sort=uploaded", "/api/photos?limit=100&sort=uploaded"),
                   (f"/search?q={RARE_WORD} (matches nothing)", "/search?q=" + RARE_WORD),
                   (f"/search?q={FEW_WORD} (hundreds match: the index's candidates)", "/search?q=" + FEW_WORD),
                   (f"/api/photos?q={RARE_FILE_NAME}&limit=100 (by title)", f"/api/photos?q={RARE_FILE_NAME}&limit=100"),
                   # Last: without an index on titleKey each request sorts every title for seconds
                   # under load, and those still running when wrk stops would delay the next row.
                   ("/api/photos?limit=100", "/api/photos?limit=100")]
        rows = []
        for name, path in targets:
            if path is None:
                rows.append({"name": name, "requests": 0, "median": float("nan"), "p99": float("nan"), "max": float("nan"), "failures": 1,
                             "cpu": float("nan")})
                continue
            if shutil.which("wrk"):
                log(f"serve: {name}: wrk, {clients} connections, {WRK_SECONDS} s")
                load_wrk(port, path, clients, 2)  # warm-up
                cpu = cpu_seconds(process.pid)
                row = load_wrk(port, path, clients, WRK_SECONDS)
            else:
                log(f"serve: {name}: {requests} requests from {clients} clients (no wrk: the Python client)")
                load(port, path, clients, min(requests, 100))  # warm-up
                cpu = cpu_seconds(process.pid)
                latencies, failures = load(port, path, clients, requests)
                row = {"requests": len(latencies), "median": statistics.median(latencies), "p99": percentile(latencies, 99),
                       "max": max(latencies), "failures": failures}
            spent = (cpu_seconds(process.pid) - cpu) * 1000
            row.update(name=name, path=path, cpu=spent / row["requests"] if row["requests"] else float("nan"))
            rows.append(row)
        return rows, peak_rss_mib(process.pid)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:  # still finishing scans its clients gave up on
            log("serve: still running 30 s after SIGTERM: killed")
            process.kill()
            process.wait()
        shutil.rmtree(cache, ignore_errors=True)


def markdown(rows, rss, clients):
    out = [f"| `photosync serve`, {clients} clients in parallel | requests | median ms | p99 ms | max ms | failed | server CPU ms a request "
           f"| p99 < {TARGET_P99_MS:.0f} ms, none failed |",
           "|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        met = "yes" if r["p99"] < TARGET_P99_MS and r["failures"] == 0 else "**no**"
        out.append(f"| {r['name']} | {r['requests']} | {r['median']:.1f} | {r['p99']:.1f} | {r['max']:.1f} | {r['failures']} | {r['cpu']:.2f} | {met} |")
    if INDEX_REPORT:
        size = f", file {INDEX_REPORT['bytes'] / 1e6:.0f} MB" if "bytes" in INDEX_REPORT else ""
        took = f", ready {INDEX_REPORT['seconds']:.1f} s after start, server CPU by then {INDEX_REPORT['cpu']:.1f} s" if "cpu" in INDEX_REPORT else ""
        out.append(f"\nSearch index: {INDEX_REPORT['line']}{size}{took}.")
    out.append(f"\nServer peak RSS (VmHWM) over all of it: {rss:.1f} MiB (target < {TARGET_RSS_MIB:.0f} MiB: "
               f"{'yes' if rss < TARGET_RSS_MIB else '**no**'}).")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--binary", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), ".build/release/photosync"))
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=1000)
    args = parser.parse_args()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp")}
    rows, rss = run(args.binary, args.db, env, args.clients, args.requests, log=lambda m: print(m, file=sys.stderr))
    print(markdown(rows, rss, args.clients))


if __name__ == "__main__":
    main()
