#!/usr/bin/env python3
"""photosync benchmark (issues #5, #11): import throughput against a raw SQLite C floor, queries, memory.

    python3 Benchmarks/bench.py              # full: 10k, 100k, 1M (make bench)
    python3 Benchmarks/bench.py --quick      # 10k only (make bench-quick), printed and kept in Benchmarks/.work/quick.md
    python3 Benchmarks/bench.py --sizes 10000,100000 --query-runs 20

Expects a release build (.build/release/photosync). For each size N it
  1. generates the feed once (Benchmarks/feedcache.py; cached under Benchmarks/.work/cache),
  2. serves it on 127.0.0.1 (Benchmarks/feed_server/feed_server.c: serve_feed.py's bytes, pre-gzipped) and runs
     `photosync fetch` into a new catalog, then the same feed again with --merge-policy object-trump,
     then store-trump (every photo already stored);
  3. runs the C floor (Benchmarks/floor/floor.c) on the same records with the same three steps,
     and checks that both agree on the counts, on the schema, on the stored rows and on the run
     records; for the first import also the floor without the indexes only `list` uses
     (floor.c --no-sort-indexes), checked the same way;
then times the query commands on the largest catalog (list --photographer for a prolific and a
rare photographer, list --sort uploaded --limit 20 and list --limit 20, each run paired with the C
list floor, Benchmarks/floor/list_floor.c, given the same arguments; photographers, status;
delete --photographer last).

Every process runs with a clean environment (HOME/XDG_* in a temporary directory), its wall time
is measured around the whole process; its peak RSS and CPU time come from wait4() in
Benchmarks/peak_rss/peak_rss.c, which starts it (a child of Python would report Python's RSS). Results go to
Benchmarks/results/latest.md and Benchmarks/results/throughput.svg. Times are never asserted.
"""
import argparse
import datetime
import hashlib
import json
import math
import os
import platform
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import feedcache  # noqa: E402
import serve_bench  # noqa: E402

PER_PAGE = 500
MiB = 1024 * 1024
STEPS = [("first import", "object-trump", "first"),
         ("re-import, object-trump", "object-trump", "again-object"),
         ("re-import, store-trump", "store-trump", "again-store")]
# The indexes that serve only `list`'s orders; the floor's --no-sort-indexes leaves them out.
SORT_INDEXES = {"Photo_uploaded_index", "Photo_titleKey_index"}


def log(message):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# MARK: - processes

class Run:
    def __init__(self, wall, maxrss_kib, status, stdout, stderr, rss_samples, cpu=0.0):
        self.wall, self.maxrss_kib, self.status, self.cpu = wall, maxrss_kib, status, cpu
        self.stdout, self.stderr, self.rss_samples = stdout, stderr, rss_samples

    @property
    def rss_mib(self):
        return self.maxrss_kib / 1024


def run(cmd, env, timeout, stdout_path=None, sample_rss=False):
    """Runs cmd to completion (killed after `timeout` s): wall time, peak RSS and CPU time (from
    `peak_rss`, which starts it: see peak_rss/peak_rss.c for why wait4() here would not do), output."""
    out = open(stdout_path, "wb") if stdout_path else tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    report = tempfile.NamedTemporaryFile(prefix="peak-rss-", delete=False)
    report.close()
    samples = []
    helper = peak_rss_helper()
    start = time.monotonic()
    proc = subprocess.Popen([helper, report.name, *cmd], env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                            start_new_session=True)
    done = threading.Event()

    def sampler():
        measured = None
        while not done.wait(0.25):
            try:
                if measured is None:
                    with open(f"/proc/{proc.pid}/task/{proc.pid}/children") as children:
                        measured = int(children.read().split()[0])
                with open(f"/proc/{measured}/status") as status:
                    for line in status:
                        if line.startswith("VmRSS:"):
                            samples.append((time.monotonic(), int(line.split()[1])))
            except (OSError, ValueError, IndexError):
                pass

    def kill_group():
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def killer():
        if not done.wait(timeout):
            log(f"timeout after {timeout}s: killing {cmd[0]} (pid {proc.pid})")
            kill_group()

    threads = [threading.Thread(target=killer, daemon=True)]
    if sample_rss:
        threads.append(threading.Thread(target=sampler, daemon=True))
    for t in threads:
        t.start()
    try:
        _, wstatus, _ = os.wait4(proc.pid, 0)
    except BaseException:
        # Its own session does not get the terminal's Ctrl-C: stop it with us.
        kill_group()
        raise
    wall = time.monotonic() - start
    done.set()
    proc.returncode = os.waitstatus_to_exitcode(wstatus)
    with open(report.name) as f:
        fields = f.read().split()
    os.unlink(report.name)
    maxrss, cpu = (int(fields[0]), float(fields[1]) + float(fields[2])) if len(fields) == 3 else (0, 0.0)
    text = b""
    if not stdout_path:
        out.seek(0)
        text = out.read()
    out.close()
    err.seek(0)
    return Run(wall, maxrss, proc.returncode, text.decode("utf-8", "replace"),
               err.read().decode("utf-8", "replace"), samples, cpu)


def peak_rss_helper():
    """peak_rss/peak_rss.c, built next to the feed caches on first use."""
    os.makedirs(os.path.join(HERE, ".work"), exist_ok=True)
    return compiled(os.path.join(HERE, "peak_rss", "peak_rss.c"), os.path.join(HERE, ".work", "peak_rss"))


def paired_arguments(parser):
    """The options of a script that pairs runs on one cached feed (history_bench, metadata_bench)."""
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cache", default=os.path.join(HERE, ".work", "cache"))
    parser.add_argument("--workdir", default=os.path.join(HERE, ".work"))
    parser.add_argument("--results", default=os.path.join(HERE, "results"))


def paired_runner(args, binary):
    """A Bench for such a script's runs of `binary`, working under --workdir."""
    os.makedirs(args.workdir, exist_ok=True)
    return Bench(argparse.Namespace(binary=binary, cache=args.cache, workdir=args.workdir, results=args.results, keep=False))


def paired_report(results, name, header, row):
    """Writes such a script's one-row table to results/NAME and prints the row."""
    os.makedirs(results, exist_ok=True)
    with open(os.path.join(results, name), "w") as out:
        out.write(header + "\n" + row + "\n")
    print(row)


def clean_env(home):
    # PHOTOSYNC_API_BUDGET: the default budget (3,000 calls an hour per key, recorded in the catalog)
    # would stop the 1M catalog's first re-import half way (2,000 pages a run).
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8",
           "XDG_CONFIG_HOME": os.path.join(home, "config"), "XDG_DATA_HOME": os.path.join(home, "data"),
           "XDG_CACHE_HOME": os.path.join(home, "cache"), "TMPDIR": home, "PHOTOSYNC_API_BUDGET": "1000000"}
    for key in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        os.makedirs(env[key], exist_ok=True)
    return env


def compiled(source, target, *libraries):
    """`source` built with gcc -O2 as `target` (again only when the source is newer)."""
    if not os.path.exists(target) or os.path.getmtime(target) < os.path.getmtime(source):
        subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-o", target, source, *libraries], check=True)
    return target


class FeedServer:
    """Benchmarks/feed_server/feed_server.c serving a feed cache directory (built next to the caches)."""

    def __init__(self, feed_dir, request_log):
        binary = compiled(os.path.join(HERE, "feed_server", "feed_server.c"),
                          os.path.join(os.path.dirname(os.path.abspath(feed_dir)), "feed_server"), "-pthread")
        self.proc = subprocess.Popen([binary, "--dir", feed_dir, "--log", request_log], stdout=subprocess.PIPE,
                                     stdin=subprocess.DEVNULL, stderr=open(request_log + ".stderr", "wb"))
        self.port = int(self.proc.stdout.readline())

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# MARK: - the steps

class Bench:
    def __init__(self, args):
        self.args = args
        self.binary = os.path.abspath(args.binary)
        self.cache = os.path.abspath(args.cache)
        os.makedirs(self.cache, exist_ok=True)
        self.work = tempfile.mkdtemp(prefix="run-", dir=os.path.abspath(args.workdir))
        self.env = clean_env(os.path.join(self.work, "home"))
        self.floor = os.path.join(self.cache, "floor")
        self.list_floor = os.path.join(self.cache, "list_floor")
        self.rows = []        # import rows
        self.chunks = {}      # size -> {"photosync": [(stored, rate)], "floor": [...]}
        self.rss_growth = {}  # size -> [(photos stored, rss MiB)]
        self.queries = []
        self.serve_rows, self.serve_rss, self.serve_size = [], 0.0, 0
        self.checks = []
        self.downloads = None  # download_bench.measure(...) once run
        self.links = None  # links_bench.report(...) lines once run
        self.links_history = None  # the same with persistent history recording the links
        self.notes = []

    def build_floor(self):
        compiled(os.path.join(HERE, "floor", "floor.c"), self.floor, "-lsqlite3")
        compiled(os.path.join(HERE, "floor", "list_floor.c"), self.list_floor, "-lsqlite3", "-lm")

    def photosync(self, db, *arguments):
        return [self.binary, "--db", db, "--quiet", *arguments]

    def import_photosync(self, size, feed_dir, db, policy, label, timeout):
        """`photosync fetch` of the whole feed. --full: a re-import walks every page, as the floor does
        (after a completed fetch of the same source photosync would stop at the first known page)."""
        request_log = os.path.join(self.work, f"requests-{size}-{label}.log")
        server = FeedServer(feed_dir, request_log)
        try:
            r = run(self.photosync(db, "fetch", "--url", f"http://127.0.0.1:{server.port}/", "--api-key", "bench",
                                   "--pages", "2000", "--per-page", str(PER_PAGE), "--merge-policy", policy,
                                   "--retries", "0", "--full", "--format", "json"),
                    self.env, timeout, sample_rss=True)
        finally:
            server.stop()
        summary = None
        if r.status == 0:
            try:
                summary = json.loads(r.stdout)
            except ValueError:
                pass
        if summary is None:
            log(f"photosync {label} {size} failed (exit {r.status}): {r.stderr.strip()[:500]}")
        stamps = []
        with open(request_log) as f:
            for line in f:
                t, page = line.split()
                stamps.append((float(t), int(page)))
        return r, summary, stamps

    def import_floor(self, records, db, policy, label, size, timeout, sort_indexes=True, metadata=False):
        """The C floor; without `sort_indexes`, the variant without the indexes only `list` uses; with
        `metadata`, the floor that writes a metadata feed's extras too (Benchmarks/metadata_bench.py)."""
        page_log = os.path.join(self.work, f"floor-{size}-{label}.log")
        flags = ([] if sort_indexes else ["--no-sort-indexes"]) + (["--metadata"] if metadata else [])
        r = run([self.floor, *flags, db, records, str(PER_PAGE), policy, page_log], self.env, timeout)
        summary = json.loads(r.stdout) if r.status == 0 else None
        if summary is None:
            log(f"floor {label} {size} failed (exit {r.status}): {r.stderr.strip()[:500]}")
        stamps = []
        if os.path.exists(page_log):
            with open(page_log) as f:
                stamps = [(float(t), int(p)) for t, p in (line.split() for line in f)]
        return r, summary, stamps

    def run_size(self, size):
        feed_dir = feedcache.ensure(self.cache, size, 1, PER_PAGE, log=log)
        records = os.path.join(feed_dir, "records.bin")
        timeout = max(120, size // 250)  # generous: 1M photos -> 4000 s per run
        repeats = self.args.repeat if self.args.repeat else (7 if size <= 100_000 else 1)
        results = {name: [] for name, _, _ in STEPS}
        for rep in range(repeats):
            dbs = {who: os.path.join(self.work, f"{who}-{size}-{rep}.sqlite") for who in ("photosync", "floor", "nosort")}
            for step in STEPS:
                results[step[0]].append(self.run_step(size, rep, repeats, step, feed_dir, records, dbs, timeout))
            if rep == 0:
                self.compare_catalogs(size, dbs)
                keep = dbs["photosync"]
            else:
                remove_catalogs(dbs.values())
        for name, _, label in STEPS:
            self.summarise(size, name, label, results[name])
        return keep

    def run_step(self, size, rep, repeats, step, feed_dir, records, dbs, timeout):
        """One step of one run: photosync, then the floor (and, for the first import, the floor
        without sort indexes). Returns their (Run, summary, stamps), the last one None on re-imports."""
        name, policy, label = step
        tag = f"{size:>8} photos  {name}" + (f" (run {rep + 1}/{repeats})" if repeats > 1 else "")
        log(f"{tag}: photosync ...")
        ps = self.import_photosync(size, feed_dir, dbs["photosync"], policy, f"{label}-{rep}", timeout)
        log(f"{tag}: photosync {ps[0].wall:.2f} s, {ps[0].rss_mib:.1f} MiB; floor ...")
        fl = self.import_floor(records, dbs["floor"], policy, f"{label}-{rep}", size, timeout)
        log(f"{tag}: floor {fl[0].wall:.2f} s, {fl[0].rss_mib:.1f} MiB")
        self.check_counts(size, name, rep, ps, fl, "the floor")
        if label != "first":
            return ps, fl, None
        nosort = self.import_floor(records, dbs["nosort"], policy, f"{label}-nosort-{rep}", size, timeout, sort_indexes=False)
        log(f"{tag}: floor without sort indexes {nosort[0].wall:.2f} s")
        self.check_counts(size, name, rep, ps, nosort, "the floor without sort indexes")
        return ps, fl, nosort

    def check_counts(self, size, name, rep, ps, fl, floor_name):
        """The summaries agree (checked on the first run, and on any later run that disagrees)."""
        if not (ps[1] and fl[1]):
            return
        keys = ["received", "inserted", "updated", "unchanged", "photographers_inserted", "photographers_removed"]
        same = all(ps[1].get(k) == fl[1].get(k) for k in keys)
        if rep == 0 or not same:
            self.checks.append((f"{size} {name}: photosync and {floor_name} report the same counts", same,
                                "" if same else f"photosync {ps[1]} / floor {fl[1]}"))

    def summarise(self, size, name, label, runs):
        """The step's row: median runs, and the median of the pairs' ratios."""
        ps, fl = median_run([r[0] for r in runs]), median_run([r[1] for r in runs])
        row = {"size": size, "step": name, "photosync": ps[0], "floor": fl[0], "repeats": len(runs),
               "ratio": pair_ratio(runs, 1), "ps_all": [r[0][0].wall for r in runs], "fl_all": [r[1][0].wall for r in runs],
               "ps_summary": ps[1], "fl_summary": fl[1]}
        if runs[0][2] is not None:
            nosort = median_run([r[2] for r in runs])
            row.update(nosort=nosort[0], nosort_summary=nosort[1], ratio_nosort=pair_ratio(runs, 2),
                       ns_all=[r[2][0].wall for r in runs])
        self.rows.append(row)
        if label == "first":
            self.chunks[size] = {"photosync": self.chunk_rates(ps[2], prefetch=True),
                                 "floor": self.chunk_rates(fl[2], prefetch=False)}
            self.rss_growth[size] = self.rss_by_pages(ps[0], ps[2])

    @staticmethod
    def chunk_rates(stamps, prefetch):
        """(photos stored at the end of the chunk, photos/s over the chunk) for chunks of pages.

        photosync requests page k+1 when it starts saving page k (the request of page 1 starts the
        run), so request k+1 marks the start of page k's save; the floor logs each page's commit."""
        marks = [t for t, _ in sorted(stamps, key=lambda s: s[1])]
        if prefetch:
            marks = marks[1:]  # marks[j]: start of the save of page j+1
        if len(marks) < 3:
            return []
        chunk = max(1, len(marks) // 100)
        points = []
        for j in range(chunk, len(marks), chunk):
            seconds = marks[j] - marks[j - chunk]
            done_pages = j if prefetch else j + 1
            if seconds > 0:
                points.append((done_pages * PER_PAGE, chunk * PER_PAGE / seconds))
        return points

    @staticmethod
    def rss_by_pages(r, stamps):
        """RSS samples mapped to how many pages had been requested at that moment."""
        if not r.rss_samples or not stamps:
            return []
        times = sorted(t for t, _ in stamps)
        out, j = [], 0
        for t, kib in r.rss_samples:
            while j < len(times) and times[j] <= t:
                j += 1
            out.append((max(0, j - 2) * PER_PAGE, kib / 1024))
        return out

    def compare_catalogs(self, size, dbs):
        """The floors' catalogs against photosync's: schema, journal mode, stored rows, run records."""
        ps, fl, ns = dbs["photosync"], dbs["floor"], dbs["nosort"]
        expected = sorted(e for e in schema(ps) if e[1] not in SORT_INDEXES)
        same = schema(fl) == schema(ps)
        self.checks.append((f"{size}: floor schema (every table, index) identical to photosync's", same,
                            "" if same else f"photosync {schema(ps)}"))
        self.checks.append((f"{size}: the floor without sort indexes has photosync's schema without "
                            f"{', '.join(sorted(SORT_INDEXES))}", schema(ns) == expected, ""))
        modes = tuple(journal_mode(path) for path in (ps, fl, ns))
        self.checks.append((f"{size}: all catalogs in WAL mode", modes == ("wal",) * 3, f"{modes}"))
        a = content(ps)
        for path, who in ((fl, "floor"), (ns, "floor without sort indexes")):
            b = content(path)
            self.checks.append((f"{size}: {who}: same stored photos and photographers ({a[1]} photos, {a[2]} photographers)",
                                a == b, "" if a == b else f"photosync {a[1:]} floor {b[1:]}"))
        a, b = run_records(ps), run_records(fl)
        self.checks.append((f"{size}: floor: same run records ({len(a[0])} fetch runs, {a[1]} API calls)", a == b,
                            "" if a == b else f"photosync {a} floor {b}"))

    def run_queries(self, db, size):
        runs = self.args.query_runs
        r = run(self.photosync(db, "photographers", "--format", "json"), self.env, 600)
        people = json.loads(r.stdout)
        self.time_query("photographers", self.photosync(db, "photographers"), max(5, runs // 5), size)
        prolific = max(people, key=lambda p: (p["photos"], p["name"]))
        rare = min(people, key=lambda p: (p["photos"], p["name"]))
        target = min(1000, max(10, size // 1000))  # "thousands" at 1M
        victim = min((p for p in people if p["name"] not in (prolific["name"], rare["name"])),
                     key=lambda p: (abs(p["photos"] - 3 * target), p["name"]))
        for who, label in ((prolific, "prolific"), (rare, "rare")):
            self.time_list(db, size, runs, f"list-{label}", f' ({label}, {who["photos"]} photos)', "--photographer", who["name"])
        self.time_list(db, size, runs, "list-uploaded", "", "--sort", "uploaded", "--limit", "20")
        self.time_list(db, size, runs, "list-title", "", "--limit", "20")
        self.time_query("status", self.photosync(db, "status"), max(5, runs // 5), size)
        self.serve_rows, self.serve_rss = serve_bench.run(self.binary, db, self.env, log=log)
        self.serve_size = size
        self.time_query(f'delete --photographer "{victim["name"]}" ({victim["photos"]} photos)',
                        self.photosync(db, "delete", "--photographer", victim["name"]), 1, size, key="delete")

    def time_list(self, db, size, runs, key, note, *arguments):
        """`photosync list ARGUMENTS`, checked against and timed with the list floor given the same arguments."""
        listing, floor = self.photosync(db, "list", *arguments), [self.list_floor, db, *arguments]
        command = " ".join(["list", *(a if a.startswith("--") or a.isalnum() else f'"{a}"' for a in arguments)])
        self.check_list_floor(listing, floor, command)
        self.time_query(command + note, listing, runs, size, key=key, floor=floor)

    def check_list_floor(self, listing, floor, command):
        """The list floor must print the same photos in the same order as photosync's table."""
        ids = lambda out, skip: [line.split(" ", 1)[0] for line in out.splitlines()[skip:]]
        ours, theirs = run(listing, self.env, 600), run(floor, self.env, 600)
        printed = ids(ours.stdout, 1)
        same = ours.status == 0 and theirs.status == 0 and printed and printed == ids(theirs.stdout, 0)
        self.checks.append((f"list floor: the same {len(printed)} photos in the same order as `photosync {command}`", bool(same),
                            "" if same else f"photosync exit {ours.status}, floor exit {theirs.status}: {theirs.stderr[:200]}"))

    def time_query(self, name, cmd, runs, size, key=None, floor=None):
        """Times `cmd` `runs` times; with `floor`, each run is followed by a floor run and paired with it."""
        log(f"query {name}: {runs} run(s)")
        walls, floor_walls, rss, status = [], [], 0, 0
        for _ in range(runs):
            r = run(cmd, self.env, 600, stdout_path=os.devnull)
            walls.append(r.wall * 1000)
            rss = max(rss, r.rss_mib)
            status = status or r.status
            if r.status != 0:
                log(f"  exit {r.status}: {r.stderr.strip()[:300]}")
            if floor:
                floor_run = run(floor, self.env, 600, stdout_path=os.devnull)
                if floor_run.status != 0:
                    sys.exit(f"bench: the list floor failed (exit {floor_run.status}): {floor_run.stderr.strip()[:300]}")
                floor_walls.append(floor_run.wall * 1000)
        query = {"name": name, "key": key or name, "size": size, "runs": runs, "median": statistics.median(walls),
                 "p99": percentile(walls, 99), "max": max(walls), "rss": rss, "status": status}
        if floor_walls:
            query.update(floor_median=statistics.median(floor_walls), floor_p99=percentile(floor_walls, 99),
                         ratio=statistics.median(a / b for a, b in zip(walls, floor_walls)))
        self.queries.append(query)

    def cleanup(self):
        if not self.args.keep:
            shutil.rmtree(self.work, ignore_errors=True)


def percentile(values, p):
    """Linear interpolation between closest ranks (numpy's default)."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    rank = (len(ordered) - 1) * p / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def schema(path):
    """Every table and index but GraphStore's own: its metadata and its persistent history."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as c:
        return sorted(c.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL "
                                "AND tbl_name <> 'graphstore_metadata' AND tbl_name NOT LIKE 'graphstore_history_%' "
                                "AND tbl_name <> 'sqlite_sequence'"))


def journal_mode(path):
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as c:
        return c.execute("PRAGMA journal_mode").fetchone()[0]


def content(path):
    """A digest of the stored photos with their photographers, and the counts."""
    digest = hashlib.sha256()
    rows = 0
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as c:
        for row in c.execute('SELECT p."unique", p.title, p.subtitle, p.imageURL, p.uploaded, p.source, g.name, g.ownerID '
                             'FROM Photo p LEFT JOIN Photographer g ON g.id = p.whoTook ORDER BY p."unique"'):
            digest.update(repr(row).encode())
            rows += 1
        photographers = c.execute("SELECT count(*) FROM Photographer").fetchone()[0]
    return digest.hexdigest(), rows, photographers


def run_records(path):
    """What the fetch runs recorded (all but times and the source), and how many API calls."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as c:
        runs = c.execute('SELECT outcome, pages, received, inserted, updated, unchanged, repeated, skipped, excluded, '
                         '"photographersInserted", "photographersRemoved", "newestUpload", error, finished IS NOT NULL '
                         'FROM FetchRun ORDER BY id').fetchall()
        return runs, c.execute("SELECT count(*) FROM APICall").fetchone()[0]


def median_run(results):
    """The (Run, summary, stamps) of median wall time."""
    return sorted(results, key=lambda r: r[0].wall)[len(results) // 2]


def pair_ratio(runs, floor):
    """Each photosync run is timed next to its floor runs: the median of those pairs' ratios cancels
    the slow swings of these shared machines better than a ratio of two medians."""
    ratios = [r[0][0].wall / r[floor][0].wall for r in runs if r[0][0].wall > 0 and r[floor][0].wall > 0]
    return statistics.median(ratios) if ratios else float("nan")


def remove_catalogs(paths):
    for path in paths:
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)


# MARK: - report

def human(n):
    return f"{n // 1_000_000}M" if n >= 1_000_000 and n % 1_000_000 == 0 else f"{n // 1000}k" if n >= 1000 else str(n)


def git(*args):
    try:
        return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def report(bench, started, finished):
    rows, lines = bench.rows, []
    dirty = " (with uncommitted changes)" if git("status", "--porcelain", "--", "Sources", "Package.swift") else ""
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "unknown")
    except OSError:
        pass
    load = " / ".join(f"{a:.1f}" for a in os.getloadavg())
    lines += ["# photosync benchmark: latest results", "",
              f"- commit `{git('rev-parse', '--short=12', 'HEAD')}`{dirty} on branch `{git('rev-parse', '--abbrev-ref', 'HEAD')}`",
              f"- machine: {os.cpu_count()} cores ({cpu}), {platform.system()} {platform.release()}, SQLite {sqlite3.sqlite_version} (Python's; the floor links the system libsqlite3)",
              f"- load average at the end (1/5/15 min): {load} — the 2 cores are shared, so expect run-to-run noise",
              f"- run: {started:%Y-%m-%d %H:%M} to {finished:%H:%M} UTC, `{' '.join(sys.argv[1:]) or '(full)'}`; "
              f"pages of {PER_PAGE}; release build; clean environment; wall time of the whole process; peak RSS from wait4() in `Benchmarks/peak_rss/peak_rss.c`, "
              "which starts each process (a child of the Python driver would report the driver's own RSS)",
              "- the feed: `Fixtures/generate_feed.py` (seed 1), served on 127.0.0.1 pre-gzipped by `Benchmarks/feed_server/feed_server.c`; "
              "the floor: `Benchmarks/floor/floor.c` (SQLite C API, prepared statements, records already parsed) on photosync's exact schema; "
              "the floor without sort indexes: the same without the index only `list --sort uploaded` uses (Photo uploaded; "
              "first import only)", ""]

    lines += ["## Import", "",
              "Seconds are the median of the runs (min–max in brackets when repeated: 7 runs up to 100k photos, 1 above); "
              "each run starts from a new catalog, then re-imports the same feed twice. The ratio is the median of the runs' "
              "ratios: each photosync run is timed right before its floor run (and, on first imports, the floor without sort "
              "indexes right after), which cancels most of the shared machine's swings. CPU s is user + system time of the "
              "process (photosync decodes the next page on a second thread while it saves the current one).", "",
              "| photos | step | photosync s | photosync photos/s | floor s | floor photos/s | ratio photosync ÷ floor | "
              "floor without sort indexes s | ratio photosync ÷ floor without sort indexes | photosync CPU s | floor CPU s | photosync peak RSS | floor peak RSS |",
              "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    lines += [import_line(row) for row in rows]
    lines.append("")

    firsts = [r for r in rows if r["step"] == "first import" and r["photosync"].status == 0]
    if firsts:
        lines += ["### Per-photo cost (first import, whole process)", "",
                  "| photos | photosync µs/photo | floor µs/photo | photosync − floor (photosync's own overhead) µs/photo | floor without sort indexes µs/photo |",
                  "|---:|---:|---:|---:|---:|"]
        per = lambda r, who: r[who].wall / r["size"] * 1e6
        for r in firsts:
            lines.append(f"| {human(r['size'])} | {per(r, 'photosync'):.1f} | {per(r, 'floor'):.1f} | {per(r, 'photosync') - per(r, 'floor'):.1f} | "
                         f"{per(r, 'nosort'):.1f} |")
        if len(firsts) > 1:
            a, b = firsts[0], firsts[-1]
            g_ps = per(b, "photosync") / per(a, "photosync")
            g_fl = per(b, "floor") / per(a, "floor")
            g_over = (per(b, "photosync") - per(b, "floor")) / (per(a, "photosync") - per(a, "floor"))
            lines += ["", f"Growth of the per-photo cost from {human(a['size'])} to {human(b['size'])}: photosync ×{g_ps:.2f} "
                          f"({'flat' if g_ps <= 1.25 else 'NOT flat'}; flat means within ×1.25), floor ×{g_fl:.2f}, "
                          f"photosync's own overhead (photosync − floor) ×{g_over:.2f} ({'flat' if g_over <= 1.25 else 'NOT flat'}). "
                          f"Change per photo: floor {per(b, 'floor') - per(a, 'floor'):+.1f} µs, photosync {per(b, 'photosync') - per(a, 'photosync'):+.1f} µs"
                          + ("; what grows is SQLite's work, which photosync shares with the floor." if g_ps > 1.25 and g_over <= 1.25 else ".")]
        big = max(bench.chunks) if bench.chunks else None
        if big and bench.chunks[big]["photosync"]:
            def tenths(pts):
                first = [r for s, r in pts if s <= big * 0.1] or [pts[0][1]]
                last = [r for s, r in pts if s >= big * 0.9] or [pts[-1][1]]
                return statistics.median(first), statistics.median(last)
            ps_first, ps_last = tenths(bench.chunks[big]["photosync"])
            text = (f"Within the {human(big)} first import (chunks of {bench.chunks[big]['photosync'][0][0]:,} photos; "
                    f"median of the chunks): photosync {ps_first:,.0f} photos/s over the first tenth of the catalog, {ps_last:,.0f} over the last tenth")
            if bench.chunks[big]["floor"]:
                fl_first, fl_last = tenths(bench.chunks[big]["floor"])
                text += f"; the floor {fl_first:,.0f} and {fl_last:,.0f}"
            lines += ["", text + ". Chart: [throughput.svg](throughput.svg), data: [throughput.csv](throughput.csv)."]
        lines.append("")

    if bench.rss_growth:
        lines += ["### Memory during the import (photosync, VmRSS sampled every 0.25 s)", "",
                  "| photos | RSS at 10% | 25% | 50% | 75% | end | peak |", "|---:|---:|---:|---:|---:|---:|---:|"]
        for size, samples in sorted(bench.rss_growth.items()):
            if not samples:
                continue
            def at(fraction):
                eligible = [m for s, m in samples if s <= size * fraction]
                return f"{eligible[-1]:.1f}" if eligible else "–"
            peak = next(r["photosync"].rss_mib for r in rows if r["size"] == size and r["step"] == "first import")
            lines.append(f"| {human(size)} | {at(0.10)} | {at(0.25)} | {at(0.5)} | {at(0.75)} | {samples[-1][1]:.1f} | {peak:.1f} MiB |")
        lines.append("")

    if bench.queries:
        size = bench.queries[0]["size"]
        lines += [f"## Queries on the {human(size)} catalog (whole process, stdout to /dev/null)", "",
                  "The list floor is `Benchmarks/floor/list_floor.c` given the same arguments: the same photos read with one prepared "
                  "statement of the SQLite C API in photosync's order and printed one a line, unaligned; each photosync run is followed "
                  "by a floor run, and the ratio is the median of those pairs' ratios.", "",
                  "| command | runs | median ms | p99 ms | max ms | peak RSS | floor median ms | floor p99 ms | ratio photosync ÷ floor |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for q in bench.queries:
            status = "" if q["status"] == 0 else f" (exit {q['status']})"
            floor = (f"{q['floor_median']:.1f} | {q['floor_p99']:.1f} | **{q['ratio']:.2f}×**" if "ratio" in q else "– | – | –")
            lines.append(f"| `{q['name']}`{status} | {q['runs']} | {q['median']:.1f} | {q['p99']:.1f} | {q['max']:.1f} | "
                         f"{q['rss']:.1f} MiB | {floor} |")
        lines.append("")

    if bench.links:
        lines += ["## Many-to-many sets through an import session", "",
                  "`Benchmarks/links_bench.py`: GraphStore's `links-bench` (Benchmarks/links/main.swift) against "
                  "`Benchmarks/floor/links_floor.c`, which writes the same join rows on the SQLite C API.", ""] + bench.links + [""]
    if bench.links_history:
        lines += ["### The same with persistent history", "",
                  "`links_bench.py --history`: the store records history, each link or unlink an update of both ends.", ""] + bench.links_history + [""]
    if bench.downloads:
        import download_bench  # noqa: E402
        lines += ["## Downloads (issue 27)", "",
                  "`Benchmarks/download_bench.py`: JPEG-signed images of 50–500 KB served by one threaded HTTP/1.1 server in the "
                  "script on 127.0.0.1; `photosync download --jobs 8` (libcurl's multi interface, one thread) against the floor, "
                  "`curl --parallel --parallel-max 8` on the same URLs, in pairs; then `download` again with every file present.", ""]
        lines += download_bench.report(bench.downloads) + [""]
    if bench.serve_rows:
        lines += [f"## `photosync serve` on the {human(bench.serve_size)} catalog (`Benchmarks/serve_bench.py`)", "",
                  serve_bench.markdown(bench.serve_rows, bench.serve_rss, 20), ""]

    lines += ["## Targets", "", "| target | figure | met |", "|---|---|---|"]
    for target, figure, met in targets(bench):
        lines.append(f"| {target} | {figure} | {met} |")
    lines.append("")

    lines += ["## Checks (photosync and the floor do the same work)", ""]
    for name, ok, detail in bench.checks:
        lines.append(f"- {'ok' if ok else '**FAILED**'}: {name}{(' — ' + detail) if detail else ''}")
    lines.append("")

    lines += ["## Profile", "", "How the instructions are spent, and why: docs/performance-design.md "
              "(`python3 Benchmarks/profile.py` measures them again).", ""]
    return "\n".join(lines)


def import_line(row):
    """One row of the import table."""
    ps, fl, nosort = row["photosync"], row["floor"], row.get("nosort")
    ok = row["ps_summary"] is not None and row["fl_summary"] is not None
    rate = lambda r: f"{row['size'] / r.wall:,.0f}" if r.status == 0 else f"failed ({r.status})"
    ratio = f"**{row['ratio']:.2f}×**" if ok else "n/a"
    spread = lambda walls: f" ({min(walls):.2f}–{max(walls):.2f})" if len(walls) > 1 else ""
    bare = "– | –"
    if nosort:
        bare_ok = ok and row["nosort_summary"] is not None
        bare = f"{nosort.wall:.2f}{spread(row['ns_all'])} | " + (f"**{row['ratio_nosort']:.2f}×**" if bare_ok else "n/a")
    return (f"| {human(row['size'])} | {row['step']} | {ps.wall:.2f}{spread(row['ps_all'])} | {rate(ps)} | {fl.wall:.2f}{spread(row['fl_all'])} | "
            f"{rate(fl)} | {ratio} | {bare} | {ps.cpu:.2f} | {fl.cpu:.2f} | {ps.rss_mib:.1f} MiB | {fl.rss_mib:.1f} MiB |")


def targets(bench):
    """(target, figure, met) rows: imports, their growth and memory, then the queries."""
    by = {(r["size"], r["step"]): r for r in bench.rows}
    out = import_targets(by) + growth_targets(bench, by)
    for q in bench.queries:
        out += query_targets(q)
    for r in bench.serve_rows:
        met = r["p99"] < serve_bench.TARGET_P99_MS and r["failures"] == 0
        out.append((f"`serve` {r['name']}, 20 clients: p99 < 50 ms, none failed", f"p99 {r['p99']:.1f} ms, {r['failures']} failed",
                    "yes" if met else "**no**"))
    if bench.serve_rows:
        out.append(("`serve` peak RSS < 100 MiB", f"{bench.serve_rss:.1f} MiB", "yes" if bench.serve_rss < 100 else "**no**"))
    return out + download_targets(bench.downloads)


def download_targets(d):
    """Issue 27: download within 1.25× of curl's wall time with peak RSS under 64 MiB; all present: no request."""
    if not d:
        return []
    rss = max(p.rss_mib for p, _ in d["pairs"])
    return [(f"`download` of {d['images']} images within 1.25× of `curl --parallel` (median of pairs)", f"{d['ratio']:.2f}×",
             "yes" if d["ratio"] <= 1.25 else "**no**"),
            ("`download` peak RSS < 64 MiB", f"{rss:.1f} MiB", "yes" if rss < 64 else "**no**"),
            ("`download` with every file present makes no request", f"{d['present_requests']} requests, {d['present'].wall:.2f} s",
             "yes" if d["present_requests"] == 0 else "**no**")]


def import_targets(by):
    """The imports of 100k (or the smallest size) against the floor (1.3×), and every first import
    from 100k on against the floor without sort indexes (1.5×)."""
    sizes = sorted({s for s, _ in by})
    if not sizes:
        return []
    size = 100_000 if 100_000 in sizes else sizes[0]
    out = []
    for step in (s for s, _, _ in STEPS):
        r = by.get((size, step))
        if r:
            out.append((f"{step} of {human(size)} within 1.3× of the floor", f"{r['ratio']:.2f}× ({r['photosync'].wall:.2f} s vs {r['floor'].wall:.2f} s)",
                        "yes" if r["ratio"] <= 1.3 else "**no**"))
    for s in [s for s in sizes if s >= size]:
        r = by[(s, "first import")]
        if "nosort" in r:
            out.append((f"first import of {human(s)} within 1.5× of the floor without sort indexes",
                        f"{r['ratio_nosort']:.2f}× ({r['photosync'].wall:.2f} s vs {r['nosort'].wall:.2f} s)",
                        "yes" if r["ratio_nosort"] <= 1.5 else "**no**"))
    return out


def growth_targets(bench, by):
    """The first import's per-photo cost flat across sizes, and its memory on the largest."""
    out = []
    sizes = sorted({s for s, _ in by})
    if len(sizes) > 1:
        a, b = by[(sizes[0], "first import")], by[(sizes[-1], "first import")]
        per = lambda r, who: r[who].wall / r["size"]
        g_ps = per(b, "photosync") / per(a, "photosync")
        g_over = (per(b, "photosync") - per(b, "floor")) / (per(a, "photosync") - per(a, "floor"))
        out.append((f"per-photo cost of the first import flat from {human(sizes[0])} to {human(sizes[-1])} (within ×1.25)",
                    f"photosync ×{g_ps:.2f}; its own overhead (photosync − floor) ×{g_over:.2f}; floor ×{per(b, 'floor') / per(a, 'floor'):.2f}",
                    "yes" if g_ps <= 1.25 else ("**no** (the growth is SQLite's: the overhead is flat)" if g_over <= 1.25 else "**no**")))
    if sizes:
        big = sizes[-1]
        r = by[(big, "first import")]
        samples = bench.rss_growth.get(big, [])
        early = [m for s, m in samples if s <= big * 0.25]
        growth = samples[-1][1] - early[-1] if samples and early else float("nan")
        met = r["photosync"].rss_mib < 100 and growth <= 10
        out.append((f"peak RSS < 100 MiB for the {human(big)} import, not growing with pages",
                    f"{r['photosync'].rss_mib:.1f} MiB peak; {growth:+.1f} MiB from 25% to the end", "yes" if met else "**no**"))
    return out


def query_targets(q):
    """The rare photographer's list and the newest 20 within 20 ms (p99); the prolific photographer's
    list within 1.5× of its floor. `list --limit 20` is timed without a target."""
    floor = f"; the floor p99 {q['floor_p99']:.1f} ms, ratio {q['ratio']:.2f}×" if "ratio" in q else ""
    figure = f"p99 {q['p99']:.1f} ms, median {q['median']:.1f} ms{floor}"
    if q["key"] == "list-prolific":
        met = "yes" if q.get("ratio", math.inf) <= 1.5 else "**no**"
        return [(f"`list --photographer` (prolific) on {human(q['size'])} within 1.5× of its floor", figure, met)]
    what = {"list-rare": "`list --photographer` (rare)", "list-uploaded": "`list --sort uploaded --limit 20`"}.get(q["key"])
    if what is None:
        return []
    met = "yes" if q["p99"] < 20 else "**no**"
    if q["p99"] >= 20 and q.get("floor_p99", 0) >= 20:
        met += " (out of reach: the C floor alone takes longer)"
    return [(f"{what} on {human(q['size'])}, p99 < 20 ms", figure, met)]


def svg_chart(bench, path):
    """photos/s against catalog size, photosync and the floor, for the largest first import."""
    if not bench.chunks:
        return
    size = max(bench.chunks)
    series = [("photosync", "#d62728", bench.chunks[size]["photosync"]), ("floor (C, SQLite API)", "#1f77b4", bench.chunks[size]["floor"])]
    values = [r for _, _, pts in series for _, r in pts]
    if not values:
        return
    W, H, L, R, T, B = 820, 440, 80, 20, 50, 60
    lo, hi = min(values), max(values)
    log_y = hi / max(lo, 1) > 8
    if log_y:
        y0, y1 = 10 ** math.floor(math.log10(max(lo, 1))), 10 ** math.ceil(math.log10(hi))
        ty = lambda v: T + (H - T - B) * (1 - (math.log10(max(v, y0)) - math.log10(y0)) / (math.log10(y1) - math.log10(y0)))
        ticks = [m * 10 ** e for e in range(int(math.log10(y0)), int(math.log10(y1)) + 1) for m in (1, 2, 5) if y0 <= m * 10 ** e <= y1]
    else:
        step = 10 ** math.floor(math.log10(hi / 5))
        step *= 2 if hi / step > 10 else 1
        y0, y1 = 0, math.ceil(hi * 1.05 / step) * step
        ty = lambda v: T + (H - T - B) * (1 - (v - y0) / (y1 - y0))
        ticks = [i * step for i in range(int(y1 / step) + 1)]
    tx = lambda s: L + (W - L - R) * s / size
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="24" text-anchor="middle" font-size="15">Import throughput against catalog size ({human(size)} photos, pages of {PER_PAGE})</text>']
    for v in ticks:
        y = ty(v)
        out.append(f'<line x1="{L}" y1="{y:.1f}" x2="{W - R}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">{v:,.0f}</text>')
    for i in range(11):
        s = size * i / 10
        out.append(f'<line x1="{tx(s):.1f}" y1="{H - B}" x2="{tx(s):.1f}" y2="{H - B + 5}" stroke="#333"/>')
        out.append(f'<text x="{tx(s):.1f}" y="{H - B + 18}" text-anchor="middle">{human(int(s)) if s else 0}</text>')
    out.append(f'<line x1="{L}" y1="{H - B}" x2="{W - R}" y2="{H - B}" stroke="#333"/><line x1="{L}" y1="{T}" x2="{L}" y2="{H - B}" stroke="#333"/>')
    out.append(f'<text x="{(L + W - R) / 2}" y="{H - 18}" text-anchor="middle">photos in the catalog</text>')
    out.append(f'<text transform="translate(18 {(T + H - B) / 2}) rotate(-90)" text-anchor="middle">photos/s{" (log scale)" if log_y else ""}</text>')
    for n, (name, color, pts) in enumerate(series):
        if pts:
            d = " ".join(f"{tx(s):.1f},{ty(r):.1f}" for s, r in pts)
            out.append(f'<polyline fill="none" stroke="{color}" stroke-width="1.8" points="{d}"/>')
        out.append(f'<rect x="{W - R - 190}" y="{T + 8 + n * 18}" width="14" height="3" fill="{color}"/>')
        out.append(f'<text x="{W - R - 170}" y="{T + 13 + n * 18}">{name}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def write_csv(bench, path):
    """The chart's data: every chunk of every first import."""
    if not bench.chunks:
        return
    with open(path, "w") as f:
        f.write("feed_photos,program,photos_stored,photos_per_second\n")
        for size in sorted(bench.chunks):
            for program in ("photosync", "floor"):
                for stored, rate in bench.chunks[size][program]:
                    f.write(f"{size},{program},{stored},{rate:.0f}\n")


def main():
    parser = argparse.ArgumentParser(description="photosync import/query benchmark against a C floor")
    parser.add_argument("--quick", action="store_true", help="10k photos only")
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--query-runs", type=int, default=50)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "photosync"))
    parser.add_argument("--cache", default=os.path.join(HERE, ".work", "cache"))
    parser.add_argument("--workdir", default=os.path.join(HERE, ".work"))
    parser.add_argument("--results", default=os.path.join(HERE, "results"))
    parser.add_argument("--keep", action="store_true", help="keep the catalogs and logs")
    parser.add_argument("--download-images", type=int, default=2000,
                        help="images for the download rows against curl (0: none; --quick: none)")
    parser.add_argument("--repeat", type=int, default=0,
                        help="runs per size, the median reported (default: 7 up to 100k photos, 1 above)")
    args = parser.parse_args()
    sizes = [10_000] if args.quick else [int(s) for s in args.sizes.split(",")]
    if args.quick:
        args.query_runs = min(args.query_runs, 20)
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"bench: {args.binary} missing: run `make release` first")
    os.makedirs(args.workdir, exist_ok=True)
    bench = Bench(args)
    started = datetime.datetime.now(datetime.timezone.utc)
    try:
        bench.build_floor()
        db = None
        for size in sizes:
            db = bench.run_size(size)
        if db:
            bench.run_queries(db, sizes[-1])
        if args.download_images and not args.quick:
            import download_bench  # noqa: E402 (it imports this module's helpers)
            log(f"download: {args.download_images} images, photosync against curl")
            bench.downloads = download_bench.measure(args.binary, args.download_images)
        if not args.quick:
            import links_bench  # noqa: E402 (it imports this module's helpers)
            log("links: many-to-many sets through an import session against Benchmarks/floor/links_floor.c")
            links = os.path.join(os.path.dirname(args.binary), "links-bench")
            bench.links = links_bench.report(links_bench.measure(links, 100_000, 5, args.workdir), 100_000)
            bench.links_history = links_bench.report(links_bench.measure(links, 100_000, 3, args.workdir, history=True), 100_000)
    finally:
        finished = datetime.datetime.now(datetime.timezone.utc)
        os.makedirs(args.results, exist_ok=True)
        text = report(bench, started, finished)
        # A quick run must not overwrite the full run's results (and chart) that the README cites.
        if args.quick:
            with open(os.path.join(args.workdir, "quick.md"), "w") as f:
                f.write(text)
        else:
            with open(os.path.join(args.results, "latest.md"), "w") as f:
                f.write(text)
            svg_chart(bench, os.path.join(args.results, "throughput.svg"))
            write_csv(bench, os.path.join(args.results, "throughput.csv"))
        bench.cleanup()
    print(text)


if __name__ == "__main__":
    main()
