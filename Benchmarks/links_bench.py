#!/usr/bin/env python3
"""Many-to-many sets through an import session against a SQLite C floor (issue 30).

    python3 Benchmarks/links_bench.py                   # 100k notes, 5 pairs per step (release build)
    python3 Benchmarks/links_bench.py --notes 20000 --repeat 3 --binary .build/debug/links-bench

`make bench` runs it too (bench.py's "Many-to-many sets" section).

Three steps, each a whole process timed with its CPU time and peak RSS (Benchmarks/peak_rss, as
bench.py does), each GraphStore run right before its floor run, on stores of their own:
  1. first:   N notes inserted, each with its set of 0-5 labels (of 1,000), in saves of 500;
  2. changed: every other note's set replaced (object-trump), the rest given as stored;
  3. same:    the changed sets again (nothing to write).
GraphStore: Benchmarks/links/main.swift (the `links-bench` product). Floor:
Benchmarks/floor/links_floor.c, on the schema GraphStore created (read from its sqlite_master).
After each step both must report the same counts and hold the same notes and pairs. Times are
never asserted. Writes results/links.md (unless --quick output only); with --history the GraphStore
side records persistent history (each link an update of both ends): results/links-history.md.
"""
import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import bench  # noqa: E402

STEPS = ["first", "changed", "same"]


def schema_sql(db):
    """GraphStore's tables and indexes, but its own metadata and history tables (and SQLite's, for their AUTOINCREMENT)."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND tbl_name NOT LIKE 'graphstore_%' AND name NOT LIKE 'sqlite_%' "
                                  "ORDER BY type = 'index', name").fetchall()
    return ";\n".join(row[0] for row in rows) + ";\n"


def content(db):
    """Every note's title and label set (by names, not row ids)."""
    with sqlite3.connect(db) as connection:
        notes = dict(connection.execute('SELECT "slug", "title" FROM "Note"').fetchall())
        pairs = sorted(connection.execute('SELECT n."slug", l."name" FROM "Note_labels" j JOIN "Note" n ON n."id" = j."Note" '
                                          'JOIN "Label" l ON l."id" = j."Label"').fetchall())
    return notes, pairs


def measure(binary, notes, repeat, workdir, history=False):
    """Runs the steps `repeat` times; returns {step: [(graphstore Run, floor Run), ...]}, pairs counted."""
    floor = bench.compiled(os.path.join(HERE, "floor", "links_floor.c"), os.path.join(workdir, "links_floor"), "-lsqlite3")
    home = tempfile.mkdtemp(prefix="links-home-", dir=workdir)
    env = bench.clean_env(home)
    gs_env = dict(env, LINKS_BENCH_HISTORY="1") if history else env
    runs = {step: [] for step in STEPS}
    for rep in range(repeat):
        gs_db, fl_db = os.path.join(workdir, f"links-gs-{rep}.sqlite"), os.path.join(workdir, f"links-floor-{rep}.sqlite")
        bench.remove_catalogs([gs_db, fl_db])
        schema = None
        for step in STEPS:
            gs = bench.run([binary, gs_db, str(notes), step], gs_env, timeout=3600)
            if gs.status != 0:
                sys.exit(f"links-bench {step} failed: {gs.stderr[-2000:]}")
            if schema is None:
                schema = os.path.join(workdir, "links-schema.sql")
                with open(schema, "w") as f:
                    f.write(schema_sql(gs_db))
            fl = bench.run([floor, fl_db, schema, str(notes), step], env, timeout=3600)
            if fl.status != 0:
                sys.exit(f"links_floor {step} failed: {fl.stderr[-2000:]}")
            gs_counts, fl_counts = json.loads(gs.stdout), json.loads(fl.stdout)
            if gs_counts != fl_counts:
                sys.exit(f"links {step}: counts differ: GraphStore {gs_counts}, floor {fl_counts}")
            gs_content, fl_content = content(gs_db), content(fl_db)
            if gs_content != fl_content:
                sys.exit(f"links {step}: the stores differ")
            bench.log(f"links {notes} notes {step} (run {rep + 1}/{repeat}): GraphStore {gs.wall:.2f} s, floor {fl.wall:.2f} s, "
                      f"{len(gs_content[1])} pairs, {gs_counts}")
            runs[step].append((gs, fl, gs_counts, len(gs_content[1])))
        bench.remove_catalogs([gs_db, fl_db])
    return runs


def report(runs, notes):
    lines = [f"{notes:,} notes with 0-5 labels each (of 1,000), saves of 500 notes; each step a whole process; "
             "medians of the runs (each GraphStore run right before its floor run); the ratio is the median of the pairs' ratios.", "",
             "| step | pairs | counts (inserted/updated/unchanged) | GraphStore s | floor s | ratio | GraphStore CPU s | floor CPU s | CPU ratio | GraphStore peak RSS MiB | floor peak RSS MiB |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for step, pairs in runs.items():
        if not pairs:
            continue
        med = lambda values: statistics.median(values)
        gs_wall, fl_wall = med([p[0].wall for p in pairs]), med([p[1].wall for p in pairs])
        gs_cpu, fl_cpu = med([p[0].cpu for p in pairs]), med([p[1].cpu for p in pairs])
        ratio = med([p[0].wall / p[1].wall for p in pairs])
        cpu_ratio = med([p[0].cpu / p[1].cpu for p in pairs if p[1].cpu > 0]) if any(p[1].cpu > 0 for p in pairs) else float("nan")
        counts = pairs[0][2]
        lines.append(f"| {step} | {pairs[0][3]:,} | {counts['inserted']}/{counts['updated']}/{counts['unchanged']} | {gs_wall:.2f} | "
                     f"{fl_wall:.2f} | {ratio:.2f} | {gs_cpu:.2f} | {fl_cpu:.2f} | {cpu_ratio:.2f} | "
                     f"{med([p[0].rss_mib for p in pairs]):.1f} | {med([p[1].rss_mib for p in pairs]):.1f} |")
    return lines


def main():
    parser = argparse.ArgumentParser(description="many-to-many sets through an import session against a C floor")
    parser.add_argument("--notes", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "links-bench"))
    parser.add_argument("--workdir", default=os.path.join(HERE, ".work"))
    parser.add_argument("--results", default=os.path.join(HERE, "results"))
    parser.add_argument("--history", action="store_true", help="GraphStore records persistent history")
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"links_bench: {args.binary} missing: run `make release` first")
    os.makedirs(args.workdir, exist_ok=True)
    title = "# Many-to-many sets through an import session" + (" with persistent history" if args.history else "") + ", against a C floor"
    lines = [title, ""] + report(measure(args.binary, args.notes, args.repeat, args.workdir, args.history), args.notes)
    text = "\n".join(lines) + "\n"
    os.makedirs(args.results, exist_ok=True)
    with open(os.path.join(args.results, "links-history.md" if args.history else "links.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
