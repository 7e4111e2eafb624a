#!/usr/bin/env python3
"""Profiles a 10k-photo first import (and a re-import) under callgrind.

    python3 Benchmarks/profile.py [--photos 10000] [--startup] [--keep-raw]
    python3 Benchmarks/profile.py --queries-on CATALOG   # only `status` and `list`, on a catalog you have

Runs `valgrind --tool=callgrind` on `photosync fetch` against the benchmark feed server (same
feed, same flags as bench.py), then writes Benchmarks/results/callgrind-<N>-<step>.txt
(callgrind-catalog-<status|list>.txt with --queries-on): the
callgrind_annotate summary (exclusive and inclusive, Swift names demangled with `swift demangle
--simplified`). What the profiles showed, and the design decisions they led to, are in
docs/performance-design.md.
"""
import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import bench  # noqa: E402
import feedcache  # noqa: E402


def annotate(out_file, inclusive, threshold):
    cmd = ["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}", f"--threshold={threshold}", out_file]
    text = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    if shutil.which("swift"):
        text = subprocess.run(["swift", "demangle", "--simplified"], input=text, capture_output=True, text=True).stdout
    return text


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=10_000)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "photosync"))
    parser.add_argument("--results", default=os.path.join(HERE, "results"))
    parser.add_argument("--startup", action="store_true", help="also profile `status` and `list --photographer` on the new catalog")
    parser.add_argument("--queries-on", metavar="CATALOG",
                        help="profile only `status` and `list --photographer` (the most prolific) on this existing catalog, "
                             "e.g. one kept by `bench.py --keep`")
    parser.add_argument("--keep-raw", action="store_true",
                        help="also copy callgrind's raw .out files into --results (for callgrind_annotate --tree)")
    args = parser.parse_args()
    os.makedirs(args.results, exist_ok=True)
    os.makedirs(os.path.join(HERE, ".work"), exist_ok=True)
    if args.queries_on:
        work = tempfile.mkdtemp(prefix="profile-", dir=os.path.join(HERE, ".work"))
        try:
            profile_queries(os.path.abspath(args.queries_on), "catalog", stripped_copy(args.binary, work),
                            bench.clean_env(os.path.join(work, "home")), work, args)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    cache = os.path.join(HERE, ".work", "cache")
    feed_dir = feedcache.ensure(cache, args.photos, 1, bench.PER_PAGE, log=bench.log)
    os.makedirs(os.path.join(HERE, ".work"), exist_ok=True)
    work = tempfile.mkdtemp(prefix="profile-", dir=os.path.join(HERE, ".work"))
    env = bench.clean_env(os.path.join(work, "home"))
    db = os.path.join(work, "catalog.sqlite")
    binary = stripped_copy(args.binary, work)
    try:
        for step, policy in (("first", "object-trump"), ("again-object", "object-trump"), ("again-store", "store-trump")):
            server = bench.FeedServer(feed_dir, os.path.join(work, f"requests-{step}.log"))
            out_file = os.path.join(work, f"callgrind-{step}.out")
            try:
                bench.log(f"callgrind: {args.photos} photos, {step} ({policy}) ...")
                r = bench.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}",
                               binary, "--db", db, "--quiet", "fetch", "--url", f"http://127.0.0.1:{server.port}/",
                               "--api-key", "bench", "--pages", "2000", "--per-page", str(bench.PER_PAGE),
                               "--merge-policy", policy, "--retries", "0", "--full", "--format", "json"], env, 3600)
            finally:
                server.stop()
            if r.status != 0:
                sys.exit(f"profile: photosync failed under callgrind: {r.stderr[-2000:]}")
            write_report(out_file, f"callgrind-{args.photos // 1000}k-{step}", args,
                         f"photosync fetch of {args.photos} photos ({step}, {policy})", f"# summary: {r.stdout.strip()}\n")
        if args.startup:
            profile_queries(db, f"{args.photos // 1000}k", binary, env, work, args)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def profile_queries(db, label, binary, env, work, args):
    """`status` and `list --photographer` for the most prolific photographer, under callgrind."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        name = c.execute("SELECT g.name FROM Photographer g JOIN Photo p ON p.whoTook = g.id "
                         "GROUP BY g.id ORDER BY count(*) DESC, g.name LIMIT 1").fetchone()[0]
    for step, command in (("status", ["status"]), ("list", ["list", "--photographer", name])):
        out_file = os.path.join(work, f"callgrind-{step}.out")
        r = bench.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", binary, "--db", db,
                       *command], env, 1800, stdout_path=os.devnull)
        if r.status != 0:
            sys.exit(f"profile: photosync {step} failed under callgrind: {r.stderr[-2000:]}")
        write_report(out_file, f"callgrind-{label}-{step}", args, f"photosync {' '.join(command)} on {db}")


def stripped_copy(binary, work):
    """valgrind 3.19 cannot read the DWARF 5 Swift 6 emits ("unhandled dwarf2 abbrev form"):
    profile a copy without debug info; the symbol table still names every function."""
    copy = os.path.join(work, "photosync")
    subprocess.run(["objcopy", "--strip-debug", binary, copy], check=True)
    return copy


def write_report(out_file, name, args, what, summary=""):
    """results/NAME.txt: the annotated profile (exclusive, then inclusive); with --keep-raw also NAME.out."""
    target = os.path.join(args.results, f"{name}.txt")
    with open(target, "w") as f:
        f.write(f"# callgrind, {what}, commit {bench.git('rev-parse', '--short=12', 'HEAD')}\n{summary}\n")
        f.write("## exclusive\n\n" + annotate(out_file, False, 90))
        f.write("\n\n## inclusive\n\n" + annotate(out_file, True, 99))
    if args.keep_raw:
        shutil.copy(out_file, os.path.join(args.results, f"{name}.out"))
    bench.log(f"wrote {target}")


if __name__ == "__main__":
    main()
