#!/usr/bin/env python3
"""Issue 25: a first import with every field (license, date taken, geo, views, media, sizes, tags)
against the floor extended to write the same (target: within 1.5x).

    python3 Benchmarks/metadata_bench.py [--binary .build/release/photosync] [--size 100000] [--repeat 3]

The feed is the benchmark's feed with the generator's extras (Benchmarks/feedcache.py --metadata:
CACHE/feed-N-1-500-meta); Benchmarks/feed_server serves it and its licenses.getInfo answer. The floor
is Benchmarks/floor/floor.c --metadata: the same page transactions plus the extras' columns, the tags
as Tag rows and Photo_tags pairs, and the licenses' names. Each repeat imports into new catalogs,
photosync then the floor, timed as whole processes as bench.py times them; the ratio is the median
of the pairs' ratios. It checks that both catalogs hold the same photos with the same fields, tags
and license names. Writes the row to results/metadata.md. Times are never asserted.
"""
import argparse
import hashlib
import os
import sqlite3
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402
import feedcache  # noqa: E402

PHOTOS = ('SELECT p."unique", p.title, p.subtitle, p.imageURL, p.uploaded, g.name, g.ownerID, p.license, p.taken, '
          'p.latitude, p.longitude, p.lastUpdate, p.views, p.media, p.sizes, p.tagList, '
          '(SELECT group_concat(name, \' \') FROM (SELECT t.name FROM Photo_tags pt JOIN Tag t ON t.id = pt.Tag '
          'WHERE pt.Photo = p.id ORDER BY t.name)) '
          'FROM Photo p LEFT JOIN Photographer g ON g.id = p.whoTook ORDER BY p."unique"')


def content(db):
    """A digest of every photo with its fields, tags and photographer, and of the license names."""
    digest, rows = hashlib.sha256(), 0
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        for row in connection.execute(PHOTOS):
            digest.update(repr(row).encode())
            rows += 1
        for row in connection.execute("SELECT number, name, url FROM License ORDER BY number"):
            digest.update(repr(row).encode())
        tagged = connection.execute("SELECT count(*) FROM Photo_tags").fetchone()[0]
    return digest.hexdigest(), rows, tagged


def main():
    parser = argparse.ArgumentParser(description="a first import with every field against the extended floor")
    parser.add_argument("--binary", default=os.path.join(bench.ROOT, ".build", "release", "photosync"))
    bench.paired_arguments(parser)
    args = parser.parse_args()
    feed = feedcache.ensure(args.cache, args.size, 1, bench.PER_PAGE, log=bench.log, metadata=True)
    runner = bench.paired_runner(args, args.binary)
    runner.build_floor()
    records, timeout = os.path.join(feed, "records.bin"), max(120, args.size // 250)
    pairs = []
    for rep in range(args.repeat):
        dbs = {who: os.path.join(runner.work, f"metadata-{who}-{rep}.sqlite") for who in ("photosync", "floor")}
        ps = runner.import_photosync(args.size, feed, dbs["photosync"], "object-trump", f"metadata-{rep}", timeout)
        fl = runner.import_floor(records, dbs["floor"], "object-trump", f"metadata-{rep}", args.size, timeout, metadata=True)
        if ps[1] is None or fl[1] is None:
            sys.exit("an import failed")
        mine, floors = content(dbs["photosync"]), content(dbs["floor"])
        if mine != floors or mine[2] == 0:
            sys.exit(f"the catalogs differ: photosync {mine}, floor {floors}")
        bench.log(f"repeat {rep + 1}: photosync {ps[0].wall:.2f} s ({ps[0].cpu:.2f} s CPU), floor {fl[0].wall:.2f} s "
                  f"({fl[0].cpu:.2f} s CPU); {mine[1]} photos, {mine[2]} tag pairs, same content")
        pairs.append((ps[0], fl[0]))
        bench.remove_catalogs(dbs.values())
    row = (f"| first import of {args.size:,} with every field | {statistics.median(p.wall for p, _ in pairs):.2f} s "
           f"| {statistics.median(f.wall for _, f in pairs):.2f} s | **{statistics.median(p.wall / f.wall for p, f in pairs):.2f}x** "
           f"(target 1.5x, {len(pairs)} pairs) | {statistics.median(p.cpu / f.cpu for p, f in pairs):.2f}x |")
    runner.cleanup()
    bench.paired_report(args.results, "metadata.md", "| step | photosync | floor | median ratio | median CPU-time ratio |\n|---|---:|---:|---|---|", row)


if __name__ == "__main__":
    main()
