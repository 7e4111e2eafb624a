#!/usr/bin/env python3
"""Pre-generates a benchmark feed once, so neither the server nor the floor pays for generation.

For a feed of N photos (seed S, P per page) it writes, under CACHE/feed-N-S-P/:

    page-00001.json.gz ...  each page exactly as `Fixtures/serve_feed.py --generate N --seed S`
                            serves it (generate_feed.page + generate_feed.dumps), gzipped once;
    records.bin             every photo already parsed and normalised by photosync's feed rules
                            (TitleRules, owner stand-ins, ImageURLRule, dateupload), for the C floor;
    DONE                    written last: a cache without it is rebuilt.

With metadata (issue 25: `generate_feed.page(..., with_metadata=True)`, under CACHE/feed-N-S-P-meta/)
it also writes, for the floor's --metadata mode:

    extras.bin              each record's metadata, in records.bin's order, as photosync stores it
                            (PhotoMetadataRules, TagRule, PhotoSize.encoded): int64 lastUpdate and
                            int64 views (INT64_MIN when absent), double latitude and longitude (NaN
                            when absent), then five strings, each uint32 length (0xFFFFFFFF: NULL) +
                            UTF-8 bytes: license, taken, media, sizes, tagList;
    licenses.json.gz        flickr.photos.licenses.getInfo's answer, served by feed_server;
    licenses.tsv            the same as lines "id<TAB>name<TAB>url", for the floor.

records.bin is a sequence of records, each:
    int64 uploaded (INT64_MIN when absent), then six strings, each uint32 length + UTF-8 bytes:
    id, title, subtitle, image_url, owner_id, owner_name
(little-endian), in feed order, so page k is records (k-1)*P ... k*P-1.
"""
import gzip
import math
import os
import struct
import sys
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Fixtures"))
import generate_feed  # noqa: E402

NULL_UPLOAD = -(1 << 63)


def feed_dir(cache, photos, seed, per_page, metadata=False):
    return os.path.join(cache, f"feed-{photos}-{seed}-{per_page}" + ("-meta" if metadata else ""))


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


def license_id(value):
    text_value = trimmed(text(value))
    return text_value if 1 <= len(text_value) <= 8 and text_value.isascii() and text_value.isdigit() else None


def integer(value):
    """LenientScalar.integer for the generator's shapes (ints and digit strings)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def degrees(value, limit):
    try:
        number = float(value.strip()) if isinstance(value, str) else float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) and abs(number) <= limit else None


def tag_list(value):
    """TagRule.tags joined by spaces (the generator's tags are already lowercase letters)."""
    if value is None:
        return None
    words = (text(value) or "").split()[:75]
    tags = {"".join(c for c in w.lower() if c.isalpha() or c.isdigit())[:64] for w in words}
    return " ".join(sorted(t for t in tags if t))


def extras(item):
    """PhotoMetadataRules.metadata + how MetadataFields stores it, for a generated item."""
    taken = trimmed(text(item.get("datetaken")))
    taken = taken if taken and len(taken.encode()) <= 64 and all(ord(c) >= 32 and not 127 <= ord(c) <= 159 for c in taken) else None
    latitude, longitude = degrees(item.get("latitude"), 90), degrees(item.get("longitude"), 180)
    if latitude is None or longitude is None or (latitude == 0 and longitude == 0):
        latitude = longitude = None
    update = integer(item.get("lastupdate"))
    views = integer(item.get("views"))
    media = text(item.get("media"))
    large = trimmed(text(item.get("url_l")))
    sizes = None
    if large.startswith(("https://", "http://")):
        def pixels(value):
            number = integer(value)
            return str(number) if number is not None and 1 <= number <= 1_000_000 else "-"
        sizes = f"l {pixels(item.get('width_l'))} {pixels(item.get('height_l'))} {large}"
    return (update if update is not None and 0 <= update < 4_102_444_800 else None,
            views if views is not None and views >= 0 else None, latitude, longitude,
            license_id(item.get("license")), taken, media if media in ("photo", "video") else None, sizes,
            tag_list(item.get("tags")))


def pack_extras(values):
    update, views, latitude, longitude = values[:4]
    out = [struct.pack("<qqdd", NULL_UPLOAD if update is None else update, NULL_UPLOAD if views is None else views,
                       math.nan if latitude is None else latitude, math.nan if longitude is None else longitude)]
    for field in values[4:]:
        if field is None:
            out.append(struct.pack("<I", 0xFFFFFFFF))
        else:
            data = field.encode("utf-8")
            out.append(struct.pack("<I", len(data)) + data)
    return b"".join(out)


def pack(record):
    out = [struct.pack("<q", record[6])]
    for field in record[:6]:
        data = field.encode("utf-8")
        out.append(struct.pack("<I", len(data)))
        out.append(data)
    return b"".join(out)


def build_page(args):
    directory, k, photos, per_page, seed, metadata = args
    document = generate_feed.page(k, photos, per_page, seed, metadata)
    body = generate_feed.dumps(document)
    with open(os.path.join(directory, f"page-{k:05d}.json.gz"), "wb") as out:
        out.write(gzip.compress(body, compresslevel=5))
    kept = [item for item in document["photos"]["photo"] if normalise(item) is not None]
    return (b"".join(pack(normalise(item)) for item in kept),
            b"".join(pack_extras(extras(item)) for item in kept) if metadata else b"")


def write_licenses(directory):
    with open(os.path.join(directory, "licenses.json.gz"), "wb") as out:
        out.write(gzip.compress(generate_feed.dumps(generate_feed.licenses()), compresslevel=5))
    with open(os.path.join(directory, "licenses.tsv"), "w", encoding="utf-8") as out:
        for number, name, url in generate_feed.LICENSES:
            out.write(f"{number}\t{name}\t{url}\n")


def ensure(cache, photos, seed=1, per_page=500, log=print, metadata=False):
    directory = feed_dir(cache, photos, seed, per_page, metadata)
    if os.path.exists(os.path.join(directory, "DONE")):
        return directory
    os.makedirs(directory, exist_ok=True)
    pages = -(-photos // per_page)
    log(f"generating feed: {photos} photos, {pages} pages of {per_page} (seed {seed}) into {directory}")
    if metadata:
        write_licenses(directory)
    jobs = [(directory, k, photos, per_page, seed, metadata) for k in range(1, pages + 1)]
    extras_path = os.path.join(directory, "extras.bin") if metadata else os.devnull
    with Pool(max(1, min(2, os.cpu_count() or 1))) as pool, open(os.path.join(directory, "records.bin"), "wb") as rec, \
            open(extras_path, "wb") as extra:
        for k, (chunk, extra_chunk) in enumerate(pool.imap(build_page, jobs, chunksize=4), 1):
            rec.write(chunk)
            extra.write(extra_chunk)
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
    parser.add_argument("--metadata", action="store_true")
    a = parser.parse_args()
    print(ensure(a.cache, a.photos, a.seed, a.per_page, metadata=a.metadata))
