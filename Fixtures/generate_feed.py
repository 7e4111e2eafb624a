#!/usr/bin/env python3
"""Deterministic generator of Flickr-shaped `flickr.photos.getRecent` pages.

Photo number i (0 = newest) is a pure function of (seed, i), and owner number o of
(seed, o), so any page can be produced alone, in any order, without precomputing the
feed: a 1M-photo feed is 2000 pages of 500 served on demand. The same arguments always
give the same bytes, on any machine and any Python 3.

The data imitates what Flickr sends (see shared/reference/flickr-api-and-peers.md):
about 15% empty or blank titles and 40% empty descriptions, unicode owner names, a few
prolific owners and many occasional ones (about one owner per five photos; owner 0 is
"Ana Lima"), `url_l` missing on about 10% of photos, and numbers sent as strings
on some fields and some pages.

    python3 Fixtures/generate_feed.py --photos 1000000 --per-page 500 --seed 7 --page 3
"""
import argparse
import json
import sys

MASK64 = (1 << 64) - 1
NEWEST_ID = 53_999_999_999
NEWEST_UPLOAD = 1_717_000_000
PROLIFIC_OWNERS = 10

FIRST_NAMES = ["José", "María", "Ana", "山田", "Olga", "Søren", "Zoë", "Chidi", "Amélie", "Łukasz",
               "Priya", "Mehmet", "Ngọc", "Sven", "Fatima", "Kenji", "Lucía", "Björn", "Aroha", "Tomás"]
LAST_NAMES = ["Álvarez", "Silva", "Souza", "太郎", "Petrova", "Nørgaard", "O'Brien", "Okafor", "Dubois",
              "Wójcik", "Sharma", "Yılmaz", "Nguyễn", "Lindqvist", "Haddad", "Tanaka", "Fernández",
              "Þórsson", "Ngata", "Costa"]
HANDLES = ["atlanticyardswebcam04", "SammCox", "photo_julien", "the_wanderer", "kitemaker"]
TITLE_WORDS = ["Sunset", "over", "the", "harbour", "Morning", "fog", "Old", "town", "Street", "market",
               "Café", "Lisboa", "東京", "夜景", "Москва", "❤️", "Mountains", "in", "spring", "Río"]
CAMERA_PREFIXES = ["IMG_", "DSC_", "_MG_", "CHR_", "P10", "DSCF"]
DESCRIPTION_LINES = ["Shot on a rainy afternoon.", "Taken with a 50mm lens.",
                     "Más fotos en mi perfil.", "写真を見てくれてありがとう",
                     'See <a href="https://example.com/blog" rel="nofollow">my blog</a>.']


class Stream:
    """splitmix64: a tiny, fast, portable random stream derived from integers."""

    def __init__(self, *parts):
        state = 0x9E3779B97F4A7C15
        for part in parts:
            state = self._mix((state ^ (part & MASK64)) + 0x9E3779B97F4A7C15)
        self.state = state

    @staticmethod
    def _mix(z):
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & MASK64
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB & MASK64
        return z ^ (z >> 31)

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        return self._mix(self.state)

    def below(self, n):
        return self.next() % n

    def chance(self, percent):
        return self.below(10_000) < percent * 100

    def pick(self, items):
        return items[self.below(len(items))]


def owner_count(photos):
    return max(1, photos // 5)


def owner(o, seed):
    """Owner number o: a unique NSID and a display name (not unique, like on Flickr)."""
    stream = Stream(seed, 1, o)
    number = 10_000_000 + (o * 7919 + seed * 104_729) % 90_000_000
    nsid = f"{number}@N0{1 + stream.below(8)}"
    if o == 0:
        return nsid, "Ana Lima"
    if stream.chance(1):
        return nsid, ""
    if stream.chance(10):
        return nsid, stream.pick(HANDLES) + str(stream.below(100))
    return nsid, f"{stream.pick(FIRST_NAMES)} {stream.pick(LAST_NAMES)}"


def owner_index(stream, photos):
    """A quarter of photos come from the few prolific owners, the rest from anyone."""
    owners = owner_count(photos)
    if stream.chance(25):
        return stream.below(min(PROLIFIC_OWNERS, owners))
    return stream.below(owners)


def title(stream):
    roll = stream.below(100)
    if roll < 12:
        return ""
    if roll < 15:
        return " " * (1 + stream.below(3))
    if roll < 55:
        return f"{stream.pick(CAMERA_PREFIXES)}{stream.below(10_000):04d}" + (".jpg" if stream.chance(30) else "")
    return " ".join(stream.pick(TITLE_WORDS) for _ in range(1 + stream.below(4)))


def description(stream):
    roll = stream.below(100)
    if roll < 34:
        return ""
    if roll < 40:
        return " " * (1 + stream.below(6))
    return "\n".join(stream.pick(DESCRIPTION_LINES) for _ in range(1 + stream.below(2)))


def maybe_string(stream, value, percent):
    return str(value) if stream.chance(percent) else value


LICENSES = [
    (0, "All Rights Reserved", ""),
    (1, "Attribution-NonCommercial-ShareAlike License", "https://creativecommons.org/licenses/by-nc-sa/2.0/"),
    (2, "Attribution-NonCommercial License", "https://creativecommons.org/licenses/by-nc/2.0/"),
    (4, "Attribution License", "https://creativecommons.org/licenses/by/2.0/"),
    (9, "Public Domain Dedication (CC0)", "https://creativecommons.org/publicdomain/zero/1.0/"),
    (10, "Public Domain Mark", "https://creativecommons.org/publicdomain/mark/1.0/"),
]
TAGS = ["sea", "harbour", "dusk", "fog", "lisbon", "portrait", "street", "film", "bw", "night"]


def licenses():
    """flickr.photos.licenses.getInfo's answer for the licenses the generator uses."""
    items = [{"id": number, "name": name, "url": url} for number, name, url in LICENSES]
    return {"licenses": {"license": items}, "stat": "ok"}


def metadata(i, seed, upload):
    """The extras of photo i (its own stream: the other fields stay as without them)."""
    stream = Stream(seed, 4, i)
    located = stream.chance(30)
    return {
        "license": maybe_string(stream, stream.pick(LICENSES)[0], 80),
        "datetaken": f"2023-{1 + stream.below(12):02d}-{1 + stream.below(28):02d} {stream.below(24):02d}:{stream.below(60):02d}:00",
        "datetakengranularity": "0",
        "latitude": round(stream.below(180_000_000) / 1e6 - 90, 6) if located else 0,
        "longitude": round(stream.below(360_000_000) / 1e6 - 180, 6) if located else 0,
        "lastupdate": str(upload + stream.below(1000)),
        "views": str(stream.below(5000)),
        "media": "video" if stream.chance(3) else "photo",
        "tags": " ".join(sorted({stream.pick(TAGS) for _ in range(stream.below(4))})),
    }


def photo(i, photos, seed, with_metadata=False):
    stream = Stream(seed, 2, i)
    photo_id = str(NEWEST_ID - i * 16 - stream.below(16))
    secret = f"{stream.next() & 0xFF_FFFF_FFFF:010x}"
    nsid, name = owner(owner_index(stream, photos), seed)
    item = {
        "id": photo_id, "owner": nsid, "secret": secret, "server": "65535",
        "farm": maybe_string(stream, 66, 10), "title": title(stream),
        "ispublic": 1, "isfriend": 0, "isfamily": 0,
        "description": {"_content": description(stream)},
        "dateupload": maybe_string(stream, NEWEST_UPLOAD - i * 3 - stream.below(3), 95),
        "ownername": name,
    }
    if not stream.chance(10):
        item["url_l"] = f"https://live.staticflickr.com/65535/{photo_id}_{secret}_b.jpg"
        item["height_l"] = maybe_string(stream, 683, 50)
        item["width_l"] = maybe_string(stream, 1024, 50)
    if with_metadata:
        item.update(metadata(i, seed, NEWEST_UPLOAD - i * 3))
    return item


def page(k, photos, per_page, seed, with_metadata=False):
    """Page k (1-based) of a feed of `photos` photos, `per_page` to a page, as a dict.

    Pages past the end are empty, as Flickr's are.
    """
    pages = -(-photos // per_page) if per_page > 0 else 0
    first = (k - 1) * per_page
    items = [photo(i, photos, seed, with_metadata) for i in range(max(first, 0), min(first + per_page, photos))]
    stream = Stream(seed, 3, k)
    return {
        "photos": {
            "page": maybe_string(stream, k, 15), "pages": pages,
            "perpage": per_page, "total": maybe_string(stream, photos, 50), "photo": items,
        },
        "stat": "ok",
    }


def dumps(document):
    """The wire form: compact UTF-8 JSON, as Flickr sends it."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def main(argv=None):
    parser = argparse.ArgumentParser(description="Write one Flickr-shaped getRecent page to stdout.")
    parser.add_argument("--photos", type=int, required=True, help="photos in the whole feed")
    parser.add_argument("--per-page", type=int, default=100, help="photos per page (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    parser.add_argument("--page", type=int, default=1, help="1-based page to write (default 1)")
    args = parser.parse_args(argv)
    if args.photos < 0 or args.per_page < 1 or args.page < 1:
        parser.error("--photos must be >= 0, --per-page and --page >= 1")
    sys.stdout.buffer.write(dumps(page(args.page, args.photos, args.per_page, args.seed)) + b"\n")


if __name__ == "__main__":
    main()
