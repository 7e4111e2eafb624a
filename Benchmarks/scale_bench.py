#!/usr/bin/env python3
"""Issue 24's benchmark: deletes against a one-DELETE-per-id floor, PostgreSQL imports and
`migrate` against a set-based libpq floor. Times are printed, never asserted.

    python3 Benchmarks/scale_bench.py [--photos 24000] [--pg-photos 100000] [--repeat 3] [--binary PATH]
    Tests/postgres/cluster.sh run -- python3 Benchmarks/scale_bench.py   # adds the PostgreSQL rows

SQLite rows (always):
  - `delete ID...` of the first 24,000 photos (--delete-ids) of an N-photo catalog, paired with floor/delete_floor.c (one
    prepared DELETE and one tombstone INSERT per id, then the emptied photographers);
  - `delete --photographer` of the most prolific photographer, paired with the floor given
    that photographer's ids.
PostgreSQL rows (when PHOTOSYNC_BENCH_POSTGRES_URL or PHOTOSYNC_TEST_POSTGRES_URL names a role
with CREATEDB; each run gets a fresh database):
  - the first import and the object-trump and store-trump re-imports of the --pg-photos feed over
    loopback HTTP, each paired with floor/pg_floor.c on the same records;
  - `migrate --to` the PostgreSQL database of that feed's SQLite catalog, paired with pg_floor loading the
    same records into an empty database;
  - both deletes on the N-photo catalog migrated, paired with floor/pg_delete_floor.c (one prepared
    DELETE and one tombstone INSERT per id, one round trip each).
The large catalog (--large N; `make bench`: 1,000,000):
  - `delete --photographer` of its most prolific photographer, on both stores, against the floors;
  - `migrate --to` PostgreSQL against pg_floor loading the same records, then `list --photographer`
    of the most prolific and of a rare photographer on it: p50 and p99 of --queries runs, alternated
    with floor/pg_list_floor.c (one connection, photosync's query, the same rows printed);
  - on SQLite, `status`, `show`, `photographers --limit 20` and a rare photographer's `list`:
    p50 and p99 of --queries runs (target: p99 under 30 ms on 1M).
Each row shows medians of --repeat runs (wall time around the whole process) and the median of
the pairs' ratios. The machine may be shared: say so when quoting the figures.
"""
import argparse
import csv
import io
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402
import feedcache  # noqa: E402


class Scale:
    def __init__(self, args):
        self.args = args
        self.binary = os.path.abspath(args.binary)
        self.cache = os.path.abspath(args.cache)
        self.work = tempfile.mkdtemp(prefix="scale-", dir=os.path.abspath(args.workdir))
        self.env = bench.clean_env(os.path.join(self.work, "home"))
        self.feed = feedcache.ensure(self.cache, args.photos, 1, bench.PER_PAGE, log=bench.log)
        self.pg_feed = feedcache.ensure(self.cache, args.pg_photos, 1, bench.PER_PAGE, log=bench.log)
        self.pg_records = os.path.join(self.pg_feed, "records.bin")
        self.rows = []
        self.latencies = []
        self.postgres = os.environ.get("PHOTOSYNC_BENCH_POSTGRES_URL") or os.environ.get("PHOTOSYNC_TEST_POSTGRES_URL")
        if self.postgres:
            self.env["PGCONNECT_TIMEOUT"] = "10"

    def tool(self, name, *libraries, include=None):
        flags = [f"-I{include}"] if include else []
        target = os.path.join(self.cache, name)
        source = os.path.join(HERE, "floor", name + ".c")
        if not os.path.exists(target) or os.path.getmtime(target) < os.path.getmtime(source):
            subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", *flags, "-o", target, source, *libraries], check=True)
        return target

    def timed(self, cmd):
        r = bench.run(cmd, self.env, 3600)
        if r.status != 0:
            sys.exit(f"scale_bench: {' '.join(cmd[:4])} ... failed (exit {r.status}): {r.stderr.strip()[:400]}")
        return r

    def fetch(self, db, policy="object-trump", feed=None):
        server = bench.FeedServer(feed or self.feed, os.path.join(self.work, "requests.log"))
        try:
            return self.timed([self.binary, "--db", db, "--quiet", "fetch", "--url", f"http://127.0.0.1:{server.port}/",
                               "--api-key", "bench", "--pages", "4000", "--per-page", str(bench.PER_PAGE),
                               "--merge-policy", policy, "--retries", "0", "--full"])
        finally:
            server.stop()

    def row(self, name, ours, floors):
        ratios = [a / b for a, b in zip(ours, floors)]
        self.rows.append((name, statistics.median(ours), statistics.median(floors), statistics.median(ratios), len(ours)))
        bench.log(f"{name}: photosync {statistics.median(ours):.3f} s, floor {statistics.median(floors):.3f} s")

    # MARK: - deletes

    @staticmethod
    def chosen(db, count):
        """The first `count` photo ids, the most prolific photographer with their ids, and a photographer
        with the fewest photos."""
        import sqlite3
        with sqlite3.connect(db) as c:
            ids = [r[0] for r in c.execute('SELECT "unique" FROM "Photo" ORDER BY "id" LIMIT ?', (count,))]
            counts = c.execute('SELECT p."name", p."id", count(*) AS n FROM "Photographer" p JOIN "Photo" f ON f."whoTook" = p."id" '
                               'GROUP BY p."id" ORDER BY n DESC, p."id"').fetchall()
            theirs = [r[0] for r in c.execute('SELECT "unique" FROM "Photo" WHERE "whoTook" = ?', (counts[0][1],))]
        return ids, counts[0][0], theirs, counts[-1][0]

    def delete_rows(self, base, label, cases, repeat):
        """Each case (name, arguments, ids): `photosync delete` against delete_floor on copies of the
        SQLite catalog `base`, and with a server against pg_delete_floor on copies of it migrated."""
        floor = self.tool("delete_floor", "-lsqlite3")
        template = None
        if self.postgres:
            template = self.database(f"scale_{label}_template")
            self.timed([self.binary, "--db", base, "--quiet", "migrate", "--to", template])
        for name, arguments, ids in cases:
            id_file = os.path.join(self.work, "ids.txt")
            with open(id_file, "w") as f:
                f.write("\n".join(ids) + "\n")
            ours, floors = [], []
            for _ in range(repeat):
                for who, times in (("photosync", ours), ("floor", floors)):
                    db = os.path.join(self.work, f"{who}.sqlite")
                    subprocess.run(["cp", base, db], check=True)
                    cmd = [self.binary, "--db", db, "--quiet", "delete", *arguments] if who == "photosync" else [floor, db, id_file]
                    times.append(self.timed(cmd).wall)
            self.row(name + " (SQLite)", ours, floors)
            if template:
                self.delete_postgres(name, template, arguments, id_file, repeat)

    def delete_postgres(self, name, template, arguments, id_file, repeat):
        floor = self.tool("pg_delete_floor", "-lpq", include="/usr/include/postgresql")
        ours, floors = [], []
        for _ in range(repeat):
            for who, times in (("photosync", ours), ("floor", floors)):
                db = self.database(f"scale_delete_{who}", template=template)
                cmd = [self.binary, "--db", db, "--quiet", "delete", *arguments] if who == "photosync" else [floor, db, id_file]
                times.append(self.timed(cmd).wall)
        self.row(name + " (PostgreSQL)", ours, floors)

    def deletes(self):
        base = os.path.join(self.work, "base.sqlite")
        self.fetch(base)
        ids, name, theirs, _ = self.chosen(base, self.args.delete_ids)
        self.delete_rows(base, "deletes", [(f"delete {len(ids)} ids", ids, ids),
                                           (f"delete --photographer (the most prolific: {len(theirs)} photos)", ["--photographer", name], theirs)],
                         self.args.repeat)

    # MARK: - the large catalog

    def large(self):
        """The --large catalog (1M in `make bench`): `delete --photographer` of its most prolific
        photographer on both stores; with a server, `migrate` into PostgreSQL against pg_floor loading
        the same records, and `list --photographer` of the most prolific and of a rare photographer
        there, as latency percentiles over --queries runs."""
        size = self.args.large
        feed = feedcache.ensure(self.cache, size, 1, bench.PER_PAGE, log=bench.log)
        base = os.path.join(self.work, "large.sqlite")
        self.fetch(base, feed=feed)
        _, name, theirs, rare = self.chosen(base, 0)
        if self.postgres:
            target = self.database("scale_large")
            ours = self.timed([self.binary, "--db", base, "--quiet", "migrate", "--to", target]).wall
            empty = self.database("scale_large_floor")
            floor = self.tool("pg_floor", "-lpq", include="/usr/include/postgresql")
            theirs_load = self.timed([floor, empty, os.path.join(feed, "records.bin"), str(bench.PER_PAGE), "object-trump"]).wall
            self.row(f"migrate of the {size}-photo catalog (PostgreSQL; floor: loading the same records)", [ours], [theirs_load])
            for who, photographer in (("the most prolific", name), ("a rare one", rare)):
                self.postgres_list(f"list --photographer ({who}) on {size} (PostgreSQL)", target, photographer)
        self.reading_latencies(base, size, rare, theirs[0])
        self.delete_rows(base, "large", [(f"delete --photographer (the most prolific of {size}: {len(theirs)} photos)",
                                          ["--photographer", name], theirs)], 1)

    def postgres_list(self, label, target, photographer):
        """`list --photographer` on PostgreSQL, runs alternated with floor/pg_list_floor.c (one
        connection, photosync's query, the same rows printed): p50 and p99 of each."""
        floor = self.tool("pg_list_floor", "-lpq", "-lm", include="/usr/include/postgresql")
        listing = self.timed([self.binary, "--db", target, "list", "--photographer", photographer, "--format", "csv"]).stdout
        ours_ids = [row[0] for row in list(csv.reader(io.StringIO(listing)))[1:]]
        floor_ids = [line.split("  ", 1)[0] for line in self.timed([floor, target, photographer]).stdout.splitlines()]
        if ours_ids != floor_ids:
            sys.exit(f"scale_bench: pg_list_floor listed {len(floor_ids)} photos, photosync {len(ours_ids)} (or another order)")
        ours, floors = [], []
        for _ in range(self.args.queries):
            ours.append(self.timed([self.binary, "--db", target, "list", "--photographer", photographer]).wall)
            floors.append(self.timed([floor, target, photographer]).wall)
        self.latencies.append((label, bench.percentile(ours, 50), bench.percentile(ours, 99), len(ours),
                               bench.percentile(floors, 50), bench.percentile(floors, 99)))

    def reading_latencies(self, db, size, rare, photo):
        """The commands that read (issue 24 part 3: under 30 ms p99 on 1M photos in SQLite), whole
        processes, as latency percentiles over --queries runs each."""
        commands = [("status", ["status"]), ("show", ["show", photo]), ("photographers --limit 20", ["photographers", "--limit", "20"]),
                    ("list --photographer (a rare one)", ["list", "--photographer", rare])]
        for name, arguments in commands:
            walls = sorted(self.timed([self.binary, "--db", db] + arguments).wall for _ in range(self.args.queries))
            self.latencies.append((f"{name} on {size} (SQLite)", bench.percentile(walls, 50), bench.percentile(walls, 99), len(walls), None, None))

    # MARK: - PostgreSQL

    def database(self, name, template=None):
        """A fresh database on the server (a copy of `template`'s URL when given): its URL."""
        copy = f' TEMPLATE "{template.rsplit("/", 1)[1]}"' if template else ""
        subprocess.run(["psql", "-q", self.postgres, "-c", f'DROP DATABASE IF EXISTS "{name}"', "-c", f'CREATE DATABASE "{name}"{copy}'],
                       check=True, capture_output=True)
        return self.postgres.rsplit("/", 1)[0] + "/" + name

    def imports(self):
        floor = self.tool("pg_floor", "-lpq", include="/usr/include/postgresql")
        steps = [("first import", "object-trump"), ("re-import, object-trump", "object-trump"), ("re-import, store-trump", "store-trump")]
        times = {step: ([], []) for step, _ in steps}
        for rep in range(self.args.repeat):
            ours, theirs = self.database(f"scale_ps_{rep}"), self.database(f"scale_floor_{rep}")
            for step, policy in steps:
                times[step][0].append(self.fetch(ours, policy, self.pg_feed).wall)
                times[step][1].append(self.timed([floor, theirs, self.pg_records, str(bench.PER_PAGE), policy]).wall)
        for step, _ in steps:
            self.row(f"{step} of {self.args.pg_photos} (PostgreSQL)", *times[step])

    def migrate(self):
        floor = self.tool("pg_floor", "-lpq", include="/usr/include/postgresql")
        source = os.path.join(self.work, "migrate.sqlite")
        self.fetch(source, feed=self.pg_feed)
        ours, floors = [], []
        for rep in range(self.args.repeat):
            target = self.database(f"scale_migrate_{rep}")
            ours.append(self.timed([self.binary, "--db", source, "--quiet", "migrate", "--to", target]).wall)
            empty = self.database(f"scale_migrate_floor_{rep}")
            floors.append(self.timed([floor, empty, self.pg_records, str(bench.PER_PAGE), "object-trump"]).wall)
        self.row(f"migrate of the {self.args.pg_photos}-photo catalog (PostgreSQL; floor: loading the same records)", ours, floors)

    def table(self):
        lines = ["| step | photosync (median) | floor (median) | ratio (median of pairs) | runs |", "|---|---:|---:|---:|---:|"]
        for name, ours, floor, ratio, count in self.rows:
            lines.append(f"| {name} | {ours:.3f} s | {floor:.3f} s | {ratio:.2f}x | {count} |")
        if self.latencies:
            lines += ["", "| query (whole process) | p50 | p99 | floor p50 / p99 | runs |", "|---|---:|---:|---:|---:|"]
            for name, p50, p99, count, floor50, floor99 in self.latencies:
                floor = f"{floor50 * 1000:.1f} / {floor99 * 1000:.1f} ms" if floor50 is not None else "–"
                lines.append(f"| {name} | {p50 * 1000:.1f} ms | {p99 * 1000:.1f} ms | {floor} | {count} |")
        return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=int, default=24000)
    parser.add_argument("--pg-photos", type=int, default=100_000, help="the PostgreSQL imports' and migrate's feed (issue 24: 100k)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--binary", default=os.path.join(bench.ROOT, ".build", "release", "photosync"))
    parser.add_argument("--cache", default=os.path.join(HERE, ".work", "cache"))
    parser.add_argument("--workdir", default=os.path.join(HERE, ".work"))
    parser.add_argument("--skip-deletes", action="store_true")
    parser.add_argument("--delete-ids", type=int, default=24000, help="how many ids `delete ID...` gets (the first stored)")
    parser.add_argument("--large", type=int, default=0, help="also the large catalog's rows (make bench: 1,000,000)")
    parser.add_argument("--queries", type=int, default=50, help="runs of each reading command on the large catalogs")
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    scale = Scale(args)
    if not args.skip_deletes:
        scale.deletes()
    if scale.postgres:
        scale.imports()
        scale.migrate()
    else:
        bench.log("no PostgreSQL server (PHOTOSYNC_BENCH_POSTGRES_URL): PostgreSQL rows skipped")
    if args.large:
        scale.large()
    print(scale.table())


if __name__ == "__main__":
    main()
