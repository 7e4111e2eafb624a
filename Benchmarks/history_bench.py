#!/usr/bin/env python3
"""Issue 26: what persistent history costs a first import (target: within 1.15x of the same import
without history).

    python3 Benchmarks/history_bench.py --with .build/release/photosync --without /tmp/photosync-nohistory

Both binaries must be the same code but for history: `make bench` builds the `--without` one with
`-DPHOTOSYNC_BENCH_WITHOUT_HISTORY` (the catalog then opens without history) under
.build/bench-without-history, and runs this after bench.py. Each repeat imports the same cached
feed (Benchmarks/feedcache.py) into a new catalog with one and then the other, timed as whole
processes as bench.py times them; the ratio is the median of the pairs' ratios. It checks that both
catalogs hold the same photos and that only the one with history recorded changes. Writes the row
to results/history.md. Times are never asserted.
"""
import argparse
import os
import sqlite3
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402
import feedcache  # noqa: E402


def history_rows(db):
    with sqlite3.connect(db) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "graphstore_history_transaction" not in tables:
            return 0
        return connection.execute("SELECT sum(json_array_length(changes)) FROM graphstore_history_transaction").fetchone()[0]


def photos(db):
    with sqlite3.connect(db) as connection:
        return connection.execute('SELECT count(*) FROM "Photo"').fetchone()[0]


def main():
    parser = argparse.ArgumentParser(description="persistent history's cost on a first import")
    parser.add_argument("--with", dest="with_history", required=True)
    parser.add_argument("--without", required=True)
    bench.paired_arguments(parser)
    args = parser.parse_args()
    feed = feedcache.ensure(args.cache, args.size, log=bench.log)
    runner = bench.paired_runner(args, args.with_history)
    pairs, cpu_pairs = [], []
    for rep in range(args.repeat):
        walls = {}
        for label, binary in (("without", args.without), ("with", args.with_history)):
            runner.binary = os.path.abspath(binary)
            db = os.path.join(runner.work, f"history-{label}-{rep}.sqlite")
            r, summary, _ = runner.import_photosync(args.size, feed, db, "object-trump", f"history-{label}-{rep}", 3600)
            if summary is None:
                sys.exit(f"{label} import failed")
            walls[label] = (r.wall, photos(db), history_rows(db), r.cpu)
            bench.log(f"repeat {rep + 1}: {label} history {r.wall:.2f} s ({r.cpu:.2f} s CPU), {walls[label][1]} photos, {walls[label][2]} changes recorded")
        if walls["with"][1] != walls["without"][1] or walls["without"][2] != 0 or walls["with"][2] < walls["with"][1]:
            sys.exit(f"the catalogs differ: {walls}")
        pairs.append((walls["without"][0], walls["with"][0]))
        cpu_pairs.append((walls["without"][3], walls["with"][3]))
    ratio = statistics.median(w / wo for wo, w in pairs)
    row = (f"| first import of {args.size:,}: with history / without | {statistics.median(w for _, w in pairs):.2f} s "
           f"/ {statistics.median(wo for wo, _ in pairs):.2f} s | {ratio:.3f}x (target 1.15x, {len(pairs)} pairs) "
           f"| {statistics.median(w / wo for wo, w in cpu_pairs):.3f}x |")
    bench.paired_report(args.results, "history.md", "| step | median wall | median ratio | median CPU-time ratio |\n|---|---|---|---|", row)


if __name__ == "__main__":
    main()
