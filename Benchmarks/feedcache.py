#!/usr/bin/env python3
"""Pre-generates a benchmark feed once, so neither the server nor the floor pays for generation.

For a feed of N photos (seed S, P per page) it writes, under CACHE/feed-N-S-P/:

    page-00001.json.gz ...  each page exactly as `Fixtures/serve_feed.py --generate N --seed S`
                            serves it (generate_feed.page + generate_feed.dumps), gzipped once;
    records.bin             every photo already parsed and normalised by photosync's feed rules
                            (TitleRules, owner stand-ins, ImageURLRule, dateupload), for the C floor;
    DONE                    written last: a cache without it is rebuilt.

records.bin is a sequence of records, each:
    int64 uploaded (INT64_MIN when absent), then six strings, each uint32 length + UTF-8 bytes:
    id, title, subtitle, image_url, owner_id, owner_name
(little-endian), in feed order, so page k is records (k-1)*P ... k*P-1.
"""
import gzip
import os
import struct
import sys
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Fixtures"))
import generate_feed  # noqa: E402

NULL_UPLOAD = -(1 << 63)


def feed_dir(cache, photos, seed, per_page):
    return os.path.join(cache, f"feed-{photos}-{seed}-{per_page}")


def text(value):
    """FlickrText / LenientScalar.text for the generator's shapes (strings, numbers, {_content})."""
    if isinstance(value, dict):
        value = value.get("_content")
    if value is None or isinstance(value, bool):
        return None
    return str(value)


def trimmed(value):
    return value.strip() if value is not None else ""


def normalise(item):
    """PhotoItemRules.photo(from:) for a generated item, or None when photosync would skip it."""
    photo_id = text(item.get("id")) or ""
    if not photo_id or len(photo_id) > 64 or not (photo_id.isascii() and photo_id.isalnum()):
        return None
    owner_id, owner_name = trimmed(text(item.get("owner"))), trimmed(text(item.get("ownername")))
    if not owner_id and not owner_name:
        return None
    owner_id, owner_name = owner_id or owner_name, owner_name or owner_id
    large = trimmed(text(item.get("url_l")))
    if large:
        url = large
    else:
        server, secret = text(item.get("server")), text(item.get("secret"))
        if not server or not secret:
            return None
        url = f"https://live.staticflickr.com/{server}/{photo_id}_{secret}_b.jpg"
    title, description = trimmed(text(item.get("title"))), trimmed(text(item.get("description")))
    if title:
        subtitle = description
    elif description:
        title, subtitle = description, ""
    else:
        title, subtitle = "Unknown", ""
    raw_upload = item.get("dateupload")
    try:
        uploaded = int(raw_upload) if raw_upload is not None and not isinstance(raw_upload, bool) else None
    except ValueError:
        uploaded = None
    if uploaded is not None and uploaded < 0:
        uploaded = None
    return (photo_id, title, subtitle, url, owner_id, owner_name, NULL_UPLOAD if uploaded is None else uploaded)


def pack(record):
    out = [struct.pack("<q", record[6])]
    for field in record[:6]:
        data = field.encode("utf-8")
        out.append(struct.pack("<I", len(data)))
        out.append(data)
    return b"".join(out)


def build_page(args):
    directory, k, photos, per_page, seed = args
    document = generate_feed.page(k, photos, per_page, seed)
    body = generate_feed.dumps(document)
    with open(os.path.join(directory, f"page-{k:05d}.json.gz"), "wb") as out:
        out.write(gzip.compress(body, compresslevel=5))
    records = [normalise(item) for item in document["photos"]["photo"]]
    return b"".join(pack(r) for r in records if r is not None)


def ensure(cache, photos, seed=1, per_page=500, log=print):
    directory = feed_dir(cache, photos, seed, per_page)
    if os.path.exists(os.path.join(directory, "DONE")):
        return directory
    os.makedirs(directory, exist_ok=True)
    pages = -(-photos // per_page)
    log(f"generating feed: {photos} photos, {pages} pages of {per_page} (seed {seed}) into {directory}")
    with Pool(max(1, min(2, os.cpu_count() or 1))) as pool, open(os.path.join(directory, "records.bin"), "wb") as rec:
        for k, chunk in enumerate(pool.imap(build_page, [(directory, k, photos, per_page, seed) for k in range(1, pages + 1)], chunksize=4), 1):
            rec.write(chunk)
            if k % 200 == 0:
                log(f"  generated {k}/{pages} pages")
    with open(os.path.join(directory, "DONE"), "w") as done:
        done.write(f"{photos} {seed} {per_page} {pages}\n")
    return directory


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", default=os.path.join(HERE, ".work", "cache"))
    parser.add_argument("--photos", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-page", type=int, default=500)
    a = parser.parse_args()
    print(ensure(a.cache, a.photos, a.seed, a.per_page))
