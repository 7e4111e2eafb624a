/*
 * The floor: photosync's import work written directly on the SQLite C API.
 *
 * Same logical work as `photosync fetch` (Catalog+Fetch.swift, PreparedPage + GraphStore's import
 * session), with the records already parsed and normalised (Benchmarks/feedcache.py writes them):
 * per page of N photos,
 *   - one BEGIN IMMEDIATE transaction that
 *     - reads whether a delete excluded anything (photosync reads the page's excluded ids and
 *       names only then; the benchmark never deletes before a fetch, so the floor stops if it did);
 *     - upserts one Photographer per distinct owner name (object-trump: the page's last ownerID
 *       for that name, overwriting a stored one that differs; store-trump: the first, and a stored
 *       one stays);
 *     - upserts every Photo by its unique id (object-trump: the feed's title/subtitle/imageURL/
 *       uploaded/whoTook win, and a row is only written when a value differs; store-trump: the
 *       stored row wins, except a NULL whoTook is filled); `source` ('recent') is written only
 *       into inserted rows;
 *     - counts inserted / updated / unchanged photos and inserted photographers;
 *     - when the page updated photos, removes photographers left without photos;
 *   - a second transaction with the run's record: the page's API call (one APICall row, the key's
 *     fingerprint) and the FetchRun row's counts so far.
 * A FetchRun row is inserted before (runs left marked running are marked abandoned first) and
 * finished after (with the newest upload time received); then API calls older than a day go.
 *
 * Same schema as photosync (copied from a catalog photosync created: every table, STRICT, the same
 * unique and plain indexes, deferred foreign keys), same durability: WAL, synchronous=NORMAL,
 * foreign_keys=ON, defer_foreign_keys per transaction, default page cache. Times are stored as
 * seconds since 2001 (GraphStore's encoding).
 *
 * --no-sort-indexes creates the same tables without the indexes that only serve `list`'s orders
 * (Photo (uploaded) and (titleKey), which the others build after the pages). The photographer's index, (whoTook, uploaded) in place of the foreign
 * key's own (the cascade, the orphan check, `list --photographer` and the gallery need it), and the
 * unique indexes (the upserts need them) stay. The floor's titleKey is lower(title), not
 * photosync's key (TextFolding.sortKey, not in C), but as long.
 *
 * --metadata (a metadata feed's cache, Benchmarks/metadata_bench.py) also writes what photosync keeps
 * of the extras: extras.bin beside RECORDS gives each photo's license, date taken, geo, last update,
 * views, media, sizes and tag list as photosync stores them; the licenses' names (licenses.tsv) go
 * in first, in one transaction with that API call; each page's tags are found or inserted once
 * (Tag), and each written photo's pairs (Photo_tags) follow its tag list (an updated photo's old
 * pairs are deleted first).
 *
 * usage: floor [--no-sort-indexes] [--metadata] DB RECORDS PER_PAGE object-trump|store-trump [PAGELOG]
 * FLOOR_CACHE_KIB=N (environment, for experiments only; the benchmark never sets it) sets
 * PRAGMA cache_size = -N instead of SQLite's default (2 MiB), which photosync also uses.
 * Prints one JSON summary line on stdout. PAGELOG gets "<CLOCK_MONOTONIC seconds> <page>" after
 * each page's two commits.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#define SINCE_2001 978307200.0

/* The tables and the indexes every variant has. */
static const char *SCHEMA =
    "CREATE TABLE \"APICall\" (\"id\" INTEGER PRIMARY KEY, \"made\" REAL NOT NULL DEFAULT -978307200.0, \"key\" TEXT NOT NULL DEFAULT '') STRICT;"
    "CREATE INDEX \"APICall_made_index\" ON \"APICall\" (\"made\");"
    "CREATE TABLE \"ExcludedPhoto\" (\"id\" INTEGER PRIMARY KEY, \"unique\" TEXT NOT NULL DEFAULT '', \"photographer\" TEXT, \"excluded\" REAL NOT NULL DEFAULT -978307200.0) STRICT;"
    "CREATE INDEX \"ExcludedPhoto_photographer_index\" ON \"ExcludedPhoto\" (\"photographer\");"
    "CREATE UNIQUE INDEX \"ExcludedPhoto_unique_unique\" ON \"ExcludedPhoto\" (\"unique\");"
    "CREATE TABLE \"ExcludedPhotographer\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT NOT NULL DEFAULT '', \"ownerID\" TEXT, \"excluded\" REAL NOT NULL DEFAULT -978307200.0) STRICT;"
    "CREATE UNIQUE INDEX \"ExcludedPhotographer_name_unique\" ON \"ExcludedPhotographer\" (\"name\");"
    "CREATE TABLE \"FetchRun\" (\"id\" INTEGER PRIMARY KEY, \"started\" REAL NOT NULL DEFAULT -978307200.0, \"source\" TEXT NOT NULL DEFAULT '', \"finished\" REAL, \"outcome\" TEXT NOT NULL DEFAULT 'running', \"pages\" INTEGER NOT NULL DEFAULT 0, \"received\" INTEGER NOT NULL DEFAULT 0, \"inserted\" INTEGER NOT NULL DEFAULT 0, \"updated\" INTEGER NOT NULL DEFAULT 0, \"unchanged\" INTEGER NOT NULL DEFAULT 0, \"repeated\" INTEGER NOT NULL DEFAULT 0, \"skipped\" INTEGER NOT NULL DEFAULT 0, \"datesUnknown\" INTEGER NOT NULL DEFAULT 0, \"excluded\" INTEGER NOT NULL DEFAULT 0, \"photographersInserted\" INTEGER NOT NULL DEFAULT 0, \"photographersRemoved\" INTEGER NOT NULL DEFAULT 0, \"photographersRenamed\" INTEGER NOT NULL DEFAULT 0, \"morePages\" INTEGER NOT NULL DEFAULT 0, \"pagesSkippedKnown\" INTEGER NOT NULL DEFAULT 0, \"gap\" INTEGER NOT NULL DEFAULT 0, \"backfillPages\" INTEGER NOT NULL DEFAULT 0, \"windowsOverCap\" INTEGER NOT NULL DEFAULT 0, \"error\" TEXT, \"newestUpload\" REAL) STRICT;"
    "CREATE INDEX \"FetchRun_source_index\" ON \"FetchRun\" (\"source\");"
    "CREATE INDEX \"FetchRun_started_index\" ON \"FetchRun\" (\"started\");"
    "CREATE TABLE \"License\" (\"id\" INTEGER PRIMARY KEY, \"number\" TEXT NOT NULL DEFAULT '', \"name\" TEXT NOT NULL DEFAULT '', \"url\" TEXT NOT NULL DEFAULT '') STRICT;"
    "CREATE UNIQUE INDEX \"License_number_unique\" ON \"License\" (\"number\");"
    "CREATE TABLE \"Photo\" (\"id\" INTEGER PRIMARY KEY, \"unique\" TEXT NOT NULL DEFAULT '', \"title\" TEXT NOT NULL DEFAULT '', \"titleKey\" TEXT, \"subtitle\" TEXT NOT NULL DEFAULT '', \"imageURL\" TEXT NOT NULL DEFAULT '', \"uploaded\" REAL, \"source\" TEXT NOT NULL DEFAULT '', \"license\" TEXT, \"taken\" TEXT, \"latitude\" REAL, \"longitude\" REAL, \"lastUpdate\" REAL, \"views\" INTEGER, \"media\" TEXT, \"sizes\" TEXT, \"tagList\" TEXT, \"gone\" REAL, \"goneReason\" TEXT, \"checked\" REAL, \"whoTook\" INTEGER REFERENCES \"Photographer\"(\"id\") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED) STRICT;"
    "CREATE UNIQUE INDEX \"Photo_unique_unique\" ON \"Photo\" (\"unique\");"
    "CREATE TABLE \"PhotoFile\" (\"id\" INTEGER PRIMARY KEY, \"photo\" TEXT NOT NULL DEFAULT '', \"path\" TEXT NOT NULL DEFAULT '', \"size\" INTEGER NOT NULL DEFAULT 0, \"sha256\" TEXT NOT NULL DEFAULT '', \"sizeLabel\" TEXT NOT NULL DEFAULT '', \"contentType\" TEXT NOT NULL DEFAULT '', \"downloaded\" REAL, \"unavailableStatus\" INTEGER NOT NULL DEFAULT 0, \"unavailableReason\" TEXT, \"unavailableSince\" REAL, \"refusals\" INTEGER NOT NULL DEFAULT 0, \"retryAfter\" REAL) STRICT;"
    "CREATE UNIQUE INDEX \"PhotoFile_photo_unique\" ON \"PhotoFile\" (\"photo\");"
    "CREATE TABLE \"Photo_tags\" (\"id\" INTEGER PRIMARY KEY, \"Photo\" INTEGER NOT NULL REFERENCES \"Photo\"(\"id\") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, \"Tag\" INTEGER NOT NULL REFERENCES \"Tag\"(\"id\") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED) STRICT;"
    "CREATE UNIQUE INDEX \"Photo_tags_Photo_Tag_unique\" ON \"Photo_tags\" (\"Photo\", \"Tag\");"
    "CREATE INDEX \"Photo_tags_Tag_index\" ON \"Photo_tags\" (\"Tag\");"
    "CREATE TABLE \"Photographer\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT NOT NULL DEFAULT '', \"ownerID\" TEXT NOT NULL DEFAULT '') STRICT;"
    "CREATE UNIQUE INDEX \"Photographer_name_unique\" ON \"Photographer\" (\"name\");"
    "CREATE INDEX \"Photographer_ownerID_index\" ON \"Photographer\" (\"ownerID\");"
    "CREATE TABLE \"SearchWindow\" (\"id\" INTEGER PRIMARY KEY, \"source\" TEXT NOT NULL DEFAULT '', \"from\" INTEGER NOT NULL DEFAULT 0, \"to\" INTEGER NOT NULL DEFAULT 0) STRICT;"
    "CREATE INDEX \"SearchWindow_source_index\" ON \"SearchWindow\" (\"source\");"
    "CREATE TABLE \"SourceBackfill\" (\"id\" INTEGER PRIMARY KEY, \"source\" TEXT NOT NULL DEFAULT '', \"offset\" INTEGER NOT NULL DEFAULT 0, \"total\" INTEGER NOT NULL DEFAULT 0, \"anchorID\" TEXT NOT NULL DEFAULT '', \"anchorUploaded\" REAL, \"floor\" REAL, \"began\" REAL NOT NULL DEFAULT -978307200.0) STRICT;"
    "CREATE UNIQUE INDEX \"SourceBackfill_source_unique\" ON \"SourceBackfill\" (\"source\");"
    "CREATE TABLE \"Tag\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT NOT NULL DEFAULT '') STRICT;"
    "CREATE UNIQUE INDEX \"Tag_name_unique\" ON \"Tag\" (\"name\")";
/* The indexes that serve `list`'s orders (left out by --no-sort-indexes), built after the pages
   when missing, as photosync builds them after a first import ... */
static const char *SORT_INDEXES = "CREATE INDEX IF NOT EXISTS \"Photo_uploaded_index\" ON \"Photo\" (\"uploaded\");"
    "CREATE INDEX IF NOT EXISTS \"Photo_titleKey_index\" ON \"Photo\" (\"titleKey\");";
/* ... and the photographer's index (in place of the foreign key's own), in both. */
static const char *FOREIGN_KEY_INDEX = "CREATE INDEX \"Photo_whoTook_uploaded_index\" ON \"Photo\" (\"whoTook\", \"uploaded\");";

typedef struct { const char *p; int n; } Str;
typedef struct {
    int64_t uploaded; /* INT64_MIN: NULL */
    Str id, title, subtitle, url, owner_id, owner_name;
} Record;
/* A record's metadata (--metadata): what photosync stores of the extras (feedcache.py). */
typedef struct {
    struct { int64_t last_update, views; double latitude, longitude; } numbers; /* INT64_MIN / NaN: NULL */
    Str license, taken, media, sizes, tag_list; /* n < 0: NULL */
} Extras;

static sqlite3 *db;

static void die(const char *what) {
    fprintf(stderr, "floor: %s: %s\n", what, db ? sqlite3_errmsg(db) : "?");
    exit(1);
}
static void exec(const char *sql) {
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) { fprintf(stderr, "floor: %s: %s\n", sql, err); exit(1); }
}
/* Every statement prepared, finalized before closing. */
static sqlite3_stmt *prepared[32];
static int n_prepared;

static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *s;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, NULL) != SQLITE_OK) die(sql);
    if (n_prepared == sizeof prepared / sizeof *prepared) { fprintf(stderr, "floor: too many statements\n"); exit(1); }
    return prepared[n_prepared++] = s;
}
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}
static double wall(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* A page's records live in an arena, reused page after page (the extras in one of their own). */
typedef struct { char *p; size_t cap, len; } Arena;
static Arena records_arena, extras_arena;

/* Reads one string; its `p` is an offset until fix() (n < 0: NULL). 0: truncated, -1: arena full. */
static int read_str(FILE *f, Arena *a, Str *s) {
    uint32_t n;
    if (fread(&n, 4, 1, f) != 1) return 0;
    if (n == UINT32_MAX) { s->p = NULL; s->n = -1; return 1; }
    if (a->len + n + 1 > a->cap) return -1;
    if (n && fread(a->p + a->len, 1, n, f) != n) return 0;
    a->p[a->len + n] = 0;
    s->p = (const char *)(uintptr_t)a->len;
    s->n = (int)n;
    a->len += n + 1;
    return 1;
}
static void fix(Arena *a, Str *s) { if (s->n >= 0) s->p = a->p + (uintptr_t)s->p; }

/* One record: its fixed fields into `fixed`, then `count` strings. 1: read, 0: end, -1: arena full. */
static int read_one(FILE *f, Arena *a, void *fixed, size_t size, Str **strs, int count) {
    if (fread(fixed, size, 1, f) != 1) return 0;
    for (int i = 0; i < count; i++) {
        int ok = read_str(f, a, strs[i]);
        if (ok == -1) return -1;
        if (ok == 0) { fprintf(stderr, "floor: truncated records file\n"); exit(1); }
    }
    return 1;
}

#define RECORD_STRS(r) {&(r)->id, &(r)->title, &(r)->subtitle, &(r)->url, &(r)->owner_id, &(r)->owner_name}
#define EXTRAS_STRS(e) {&(e)->license, &(e)->taken, &(e)->media, &(e)->sizes, &(e)->tag_list}

/* Reads up to `want` records (with their extras when `ex`); returns how many. */
static int read_page(FILE *f, Record *recs, FILE *xf, Extras *ex, int want) {
    for (;;) {
        long start = ftell(f), xstart = xf ? ftell(xf) : 0;
        int got = 0, overflow = 0;
        records_arena.len = extras_arena.len = 0;
        while (got < want && !overflow) {
            Str *strs[6] = RECORD_STRS(&recs[got]);
            int ok = read_one(f, &records_arena, &recs[got].uploaded, 8, strs, 6);
            if (ok == 1 && xf) {
                Str *xstrs[5] = EXTRAS_STRS(&ex[got]);
                ok = read_one(xf, &extras_arena, &ex[got].numbers, sizeof ex[got].numbers, xstrs, 5);
                if (ok == 0) { fprintf(stderr, "floor: the extras end before the records\n"); exit(1); }
            }
            if (ok == 0) break;
            if (ok == -1) overflow = 1;
            else got++;
        }
        if (overflow) { /* grow and re-read the page */
            for (Arena *a = &records_arena; a; a = a == &records_arena ? &extras_arena : NULL) {
                a->cap *= 2;
                a->p = realloc(a->p, a->cap);
            }
            fseek(f, start, SEEK_SET);
            if (xf) fseek(xf, xstart, SEEK_SET);
            continue;
        }
        for (int i = 0; i < got; i++) {
            Str *strs[6] = RECORD_STRS(&recs[i]);
            for (int j = 0; j < 6; j++) fix(&records_arena, strs[j]);
            if (!xf) continue;
            Str *xstrs[5] = EXTRAS_STRS(&ex[i]);
            for (int j = 0; j < 5; j++) fix(&extras_arena, xstrs[j]);
        }
        return got;
    }
}

static void bind_str(sqlite3_stmt *s, int i, const Str *v) { sqlite3_bind_text(s, i, v->p, v->n, SQLITE_STATIC); }

/* The statements, prepared once. */
static struct {
    sqlite3_stmt *begin, *commit, *defer, *excluded, *max_photo, *find_owner, *insert_owner, *update_owner, *upsert_photo,
        *orphans, *run_abandon, *run_start, *run_record, *run_finish, *call, *old_calls,
        *find_tag, *insert_tag, *link_tag, *unlink_tags, *license;
} st;
/* --metadata: the extras are written too (the columns, the tags as pairs, the licenses' names). */
static int metadata;

/* The counts so far, as the run's record holds them. */
static struct { long pages, received, inserted, updated, unchanged, ph_inserted, ph_removed; } n;

static void step_done(sqlite3_stmt *s, const char *what) {
    if (sqlite3_step(s) != SQLITE_DONE) die(what);
    sqlite3_reset(s);
}

static void open_catalog(const char *path, int sort_indexes) {
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) die("open");
    sqlite3_busy_timeout(db, 5000);
    exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;");
    if (getenv("FLOOR_CACHE_KIB")) {
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA cache_size = -%ld", atol(getenv("FLOOR_CACHE_KIB")));
        exec(pragma);
    }
    sqlite3_stmt *has = prepare("SELECT count(*) FROM sqlite_master WHERE name = 'Photo'");
    sqlite3_step(has);
    if (sqlite3_column_int(has, 0) == 0) {
        exec(SCHEMA);
        exec(FOREIGN_KEY_INDEX);
    }
    sqlite3_reset(has);
}

/* The columns the feed sets, after "unique" (bound as ?2 ...; titleKey is lower(?2)); with
 * --metadata the extras' too. */
static const char *COLUMNS[] = {"title", "titleKey", "subtitle", "imageURL", "uploaded", "whoTook",
                                "license", "taken", "latitude", "longitude", "lastUpdate", "views", "media", "sizes", "tagList"};

/* The photo's upsert: object-trump writes every column when one differs; store-trump only fills a
 * NULL whoTook. RETURNING the id of a row written. */
static const char *upsert_sql(int object_trump) {
    static char sql[4096];
    int columns = metadata ? 15 : 6, n = 0;
    n += snprintf(sql + n, sizeof sql - n, "INSERT INTO \"Photo\" (\"unique\", \"source\"");
    for (int i = 0; i < columns; i++) n += snprintf(sql + n, sizeof sql - n, ", \"%s\"", COLUMNS[i]);
    n += snprintf(sql + n, sizeof sql - n, ") VALUES (?1, 'recent'");
    for (int i = 0, bound = 2; i < columns; i++)
        n += i == 1 ? snprintf(sql + n, sizeof sql - n, ", lower(?2)") : snprintf(sql + n, sizeof sql - n, ", ?%d", bound++);
    n += snprintf(sql + n, sizeof sql - n, ") ON CONFLICT (\"unique\") DO UPDATE SET ");
    if (!object_trump) {
        snprintf(sql + n, sizeof sql - n, "\"whoTook\" = excluded.\"whoTook\" WHERE \"whoTook\" IS NULL RETURNING \"id\"");
        return sql;
    }
    for (int i = 0; i < columns; i++) n += snprintf(sql + n, sizeof sql - n, "%s\"%s\" = excluded.\"%s\"", i ? ", " : "", COLUMNS[i], COLUMNS[i]);
    n += snprintf(sql + n, sizeof sql - n, " WHERE ");
    for (int i = 0; i < columns; i++)
        if (i != 1) n += snprintf(sql + n, sizeof sql - n, "%s\"%s\" IS NOT excluded.\"%s\"", i ? " OR " : "", COLUMNS[i], COLUMNS[i]);
    snprintf(sql + n, sizeof sql - n, " RETURNING \"id\"");
    return sql;
}

static void prepare_all(int object_trump) {
    st.begin = prepare("BEGIN IMMEDIATE");
    st.commit = prepare("COMMIT");
    st.defer = prepare("PRAGMA defer_foreign_keys = ON");
    st.excluded = prepare("SELECT EXISTS (SELECT 1 FROM \"ExcludedPhoto\") OR EXISTS (SELECT 1 FROM \"ExcludedPhotographer\")");
    st.max_photo = prepare("SELECT coalesce(max(\"id\"), 0) FROM \"Photo\"");
    st.find_owner = prepare("SELECT \"id\", \"ownerID\" FROM \"Photographer\" WHERE \"name\" = ?1");
    st.insert_owner = prepare("INSERT INTO \"Photographer\" (\"name\", \"ownerID\") VALUES (?1, ?2)");
    st.update_owner = prepare("UPDATE \"Photographer\" SET \"ownerID\" = ?2 WHERE \"id\" = ?1");
    st.upsert_photo = prepare(upsert_sql(object_trump));
    st.orphans = prepare(
        "DELETE FROM \"Photographer\" WHERE NOT EXISTS (SELECT 1 FROM \"Photo\" WHERE \"Photo\".\"whoTook\" = \"Photographer\".\"id\")");
    st.run_abandon = prepare("UPDATE \"FetchRun\" SET \"outcome\" = 'abandoned' WHERE \"outcome\" = 'running'");
    st.run_start = prepare("INSERT INTO \"FetchRun\" (\"started\", \"source\") VALUES (?1, 'floor')");
    st.run_record = prepare(
        "UPDATE \"FetchRun\" SET \"pages\" = ?2, \"received\" = ?3, \"inserted\" = ?4, \"updated\" = ?5, \"unchanged\" = ?6, "
        "\"photographersInserted\" = ?7, \"photographersRemoved\" = ?8 WHERE \"id\" = ?1");
    st.run_finish = prepare(
        "UPDATE \"FetchRun\" SET \"finished\" = ?2, \"outcome\" = 'succeeded', \"newestUpload\" = ?3 WHERE \"id\" = ?1");
    st.call = prepare("INSERT INTO \"APICall\" (\"made\", \"key\") VALUES (?1, ?2)");
    st.old_calls = prepare("DELETE FROM \"APICall\" WHERE \"made\" < ?1");
    st.find_tag = prepare("SELECT \"id\" FROM \"Tag\" WHERE \"name\" = ?1");
    st.insert_tag = prepare("INSERT INTO \"Tag\" (\"name\") VALUES (?1)");
    st.link_tag = prepare("INSERT INTO \"Photo_tags\" (\"Photo\", \"Tag\") VALUES (?1, ?2)");
    st.unlink_tags = prepare("DELETE FROM \"Photo_tags\" WHERE \"Photo\" = ?1");
    st.license = prepare("INSERT INTO \"License\" (\"number\", \"name\", \"url\") VALUES (?1, ?2, ?3) "
                         "ON CONFLICT (\"number\") DO UPDATE SET \"name\" = excluded.\"name\", \"url\" = excluded.\"url\"");
}

/* Distinct owner names of one page: open addressing, reset per page. `owner` is the record whose
 * ownerID wins among the page's copies (GraphStore's ImportSession: the last under object-trump, the
 * first under store-trump); `id` is 0 until the photographer is looked up. */
#define SLOTS 4096
static struct { const Record *owner; int64_t id; } names[SLOTS];
static int used[SLOTS], n_used;

static uint64_t hash(const Str *s) { /* 64-bit FNV-1a, also photosync's API key fingerprint */
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int i = 0; i < s->n; i++) h = (h ^ (unsigned char)s->p[i]) * 1099511628211ULL;
    return h;
}

static int slot_of(const Str *name) {
    int slot = (int)(hash(name) & (SLOTS - 1));
    while (names[slot].owner) {
        const Str *seen = &names[slot].owner->owner_name;
        if (seen->n == name->n && memcmp(seen->p, name->p, name->n) == 0) break;
        slot = (slot + 1) & (SLOTS - 1);
    }
    return slot;
}

/* The page's distinct names, each with the copy whose ownerID wins. */
static void collect_names(const Record *recs, int got, int object_trump) {
    for (int i = 0; i < n_used; i++) names[used[i]].owner = NULL;
    n_used = 0;
    for (int i = 0; i < got; i++) {
        int slot = slot_of(&recs[i].owner_name);
        if (!names[slot].owner) {
            names[slot].id = 0;
            used[n_used++] = slot;
        }
        if (!names[slot].owner || object_trump) names[slot].owner = &recs[i];
    }
}

/* The photographer of `r`, inserted or its ownerID updated (object-trump) on first use in the page. */
static int64_t photographer(const Record *r, int object_trump) {
    int slot = slot_of(&r->owner_name);
    if (names[slot].id) return names[slot].id;
    const Str *owner_id = &names[slot].owner->owner_id;
    int64_t id;
    bind_str(st.find_owner, 1, &r->owner_name);
    if (sqlite3_step(st.find_owner) == SQLITE_ROW) {
        id = sqlite3_column_int64(st.find_owner, 0);
        const char *stored = (const char *)sqlite3_column_text(st.find_owner, 1);
        int differs = (int)strlen(stored) != owner_id->n || memcmp(stored, owner_id->p, owner_id->n) != 0;
        sqlite3_reset(st.find_owner);
        if (object_trump && differs) {
            sqlite3_bind_int64(st.update_owner, 1, id);
            bind_str(st.update_owner, 2, owner_id);
            step_done(st.update_owner, "update photographer");
        }
    } else {
        sqlite3_reset(st.find_owner);
        bind_str(st.insert_owner, 1, &r->owner_name);
        bind_str(st.insert_owner, 2, owner_id);
        step_done(st.insert_owner, "insert photographer");
        id = sqlite3_last_insert_rowid(db);
        n.ph_inserted++;
    }
    return names[slot].id = id;
}

/* The page's tags by name, each with its Tag row's id: looked up, or inserted, on first use in the page. */
static struct { const char *p; int n; int64_t id; } tags[SLOTS];
static int tag_slots[SLOTS], n_tags;

static int64_t tag_id(const char *p, int length) {
    Str name = {p, length};
    int slot = (int)(hash(&name) & (SLOTS - 1));
    for (; tags[slot].p; slot = (slot + 1) & (SLOTS - 1))
        if (tags[slot].n == length && memcmp(tags[slot].p, p, length) == 0) return tags[slot].id;
    if (n_tags == SLOTS / 2) { fprintf(stderr, "floor: too many tags in a page\n"); exit(1); }
    int64_t id;
    sqlite3_bind_text(st.find_tag, 1, p, length, SQLITE_STATIC);
    if (sqlite3_step(st.find_tag) == SQLITE_ROW) {
        id = sqlite3_column_int64(st.find_tag, 0);
        sqlite3_reset(st.find_tag);
    } else {
        sqlite3_reset(st.find_tag);
        sqlite3_bind_text(st.insert_tag, 1, p, length, SQLITE_STATIC);
        step_done(st.insert_tag, "insert tag");
        id = sqlite3_last_insert_rowid(db);
    }
    tags[slot].p = p, tags[slot].n = length, tags[slot].id = id;
    tag_slots[n_tags++] = slot;
    return id;
}

static void forget_tags(void) {
    for (int i = 0; i < n_tags; i++) tags[tag_slots[i]].p = NULL;
    n_tags = 0;
}

/* The photo's pairs follow the tags sent (none sent: left as they are); an updated photo's old
 * pairs go first. */
static void link_tags(int64_t photo, const Str *list, int updated) {
    if (list->n < 0) return;
    if (updated) {
        sqlite3_bind_int64(st.unlink_tags, 1, photo);
        step_done(st.unlink_tags, "unlink tags");
    }
    for (const char *p = list->p, *end = list->p + list->n; p < end;) {
        const char *space = memchr(p, ' ', (size_t)(end - p));
        const char *stop = space ? space : end;
        if (stop > p) {
            sqlite3_bind_int64(st.link_tag, 1, photo);
            sqlite3_bind_int64(st.link_tag, 2, tag_id(p, (int)(stop - p)));
            step_done(st.link_tag, "link tag");
        }
        p = stop + 1;
    }
}

static void bind_optional_str(sqlite3_stmt *s, int i, const Str *v) {
    if (v->n < 0) sqlite3_bind_null(s, i);
    else sqlite3_bind_text(s, i, v->p, v->n, SQLITE_STATIC);
}

/* Binds the extras' columns, ?7 ... ?15. */
static void bind_extras(sqlite3_stmt *s, const Extras *x) {
    bind_optional_str(s, 7, &x->license);
    bind_optional_str(s, 8, &x->taken);
    if (isnan(x->numbers.latitude)) sqlite3_bind_null(s, 9);
    else sqlite3_bind_double(s, 9, x->numbers.latitude);
    if (isnan(x->numbers.longitude)) sqlite3_bind_null(s, 10);
    else sqlite3_bind_double(s, 10, x->numbers.longitude);
    if (x->numbers.last_update == INT64_MIN) sqlite3_bind_null(s, 11);
    else sqlite3_bind_double(s, 11, (double)x->numbers.last_update - SINCE_2001);
    if (x->numbers.views == INT64_MIN) sqlite3_bind_null(s, 12);
    else sqlite3_bind_int64(s, 12, x->numbers.views);
    bind_optional_str(s, 13, &x->media);
    bind_optional_str(s, 14, &x->sizes);
    bind_optional_str(s, 15, &x->tag_list);
}

/* Upserts the photo (and its tags, with `x`); returns whether it updated a stored one. */
static int upsert_photo(const Record *r, const Extras *x, int64_t owner, int64_t max_before) {
    bind_str(st.upsert_photo, 1, &r->id);
    bind_str(st.upsert_photo, 2, &r->title);
    bind_str(st.upsert_photo, 3, &r->subtitle);
    bind_str(st.upsert_photo, 4, &r->url);
    if (r->uploaded == INT64_MIN) sqlite3_bind_null(st.upsert_photo, 5);
    else sqlite3_bind_double(st.upsert_photo, 5, (double)r->uploaded - SINCE_2001);
    sqlite3_bind_int64(st.upsert_photo, 6, owner);
    if (x) bind_extras(st.upsert_photo, x);
    int rc = sqlite3_step(st.upsert_photo), updated = 0, written = rc == SQLITE_ROW;
    int64_t id = written ? sqlite3_column_int64(st.upsert_photo, 0) : 0;
    if (written) {
        if (id > max_before) n.inserted++;
        else { n.updated++; updated = 1; }
        rc = sqlite3_step(st.upsert_photo);
    } else {
        n.unchanged++;
    }
    if (rc != SQLITE_DONE) die("upsert photo");
    sqlite3_reset(st.upsert_photo);
    if (x && written) link_tags(id, &x->tag_list, updated);
    return updated;
}

/* The page's transaction: photographers and photos, and the photographers a moved photo left behind. */
static void save_page(const Record *recs, const Extras *ex, int got, int object_trump) {
    step_done(st.begin, "begin");
    step_done(st.defer, "defer foreign keys");
    sqlite3_step(st.excluded);
    int excluded = sqlite3_column_int(st.excluded, 0);
    sqlite3_reset(st.excluded);
    if (excluded) { fprintf(stderr, "floor: the catalog has excluded photos or photographers: not supported\n"); exit(1); }
    sqlite3_step(st.max_photo);
    int64_t max_before = sqlite3_column_int64(st.max_photo, 0);
    sqlite3_reset(st.max_photo);
    collect_names(recs, got, object_trump);
    long page_updated = 0;
    for (int i = 0; i < got; i++)
        page_updated += upsert_photo(&recs[i], ex ? &ex[i] : NULL, photographer(&recs[i], object_trump), max_before);
    sqlite3_clear_bindings(st.upsert_photo);
    forget_tags();
    if (page_updated > 0) {
        step_done(st.orphans, "orphans");
        n.ph_removed += sqlite3_changes(db);
    }
    step_done(st.commit, "commit");
}

/* The run's record after each page, in one transaction with the page's API call. */
static void record_page(int64_t run_id, const Str *key) {
    step_done(st.begin, "begin");
    sqlite3_bind_double(st.call, 1, wall() - SINCE_2001);
    bind_str(st.call, 2, key);
    step_done(st.call, "api call");
    long values[] = {n.pages, n.received, n.inserted, n.updated, n.unchanged, n.ph_inserted, n.ph_removed};
    sqlite3_bind_int64(st.run_record, 1, run_id);
    for (int i = 0; i < 7; i++) sqlite3_bind_int64(st.run_record, i + 2, values[i]);
    step_done(st.run_record, "run record");
    step_done(st.commit, "commit");
}

/* The licenses' names (licenses.tsv beside the records), as photosync stores getInfo's answer: in
 * one transaction with that API call, before the first page. */
static void store_licenses(const char *path, const Str *key) {
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); exit(66); }
    step_done(st.begin, "begin");
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        char *name = strchr(line, '\t'), *url = name ? strchr(name + 1, '\t') : NULL;
        if (!url) { fprintf(stderr, "floor: bad line in %s\n", path); exit(1); }
        *name++ = 0, *url++ = 0;
        url[strcspn(url, "\n")] = 0;
        sqlite3_bind_text(st.license, 1, line, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st.license, 2, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st.license, 3, url, -1, SQLITE_TRANSIENT);
        step_done(st.license, "license");
    }
    fclose(f);
    sqlite3_bind_double(st.call, 1, wall() - SINCE_2001);
    bind_str(st.call, 2, key);
    step_done(st.call, "api call");
    step_done(st.commit, "commit");
}

/* `name` beside the file `path` (both in `out`). */
static const char *beside(const char *path, const char *name, char *out, size_t size) {
    const char *slash = strrchr(path, '/');
    int folder = slash ? (int)(slash - path + 1) : 0;
    snprintf(out, size, "%.*s%s", folder, path, name);
    return out;
}

int main(int argc, char **argv) {
    int sort_indexes = 1;
    for (; argc > 1 && strncmp(argv[1], "--", 2) == 0; argv++, argc--) {
        if (strcmp(argv[1], "--no-sort-indexes") == 0) sort_indexes = 0;
        else if (strcmp(argv[1], "--metadata") == 0) metadata = 1;
        else { fprintf(stderr, "floor: unknown option %s\n", argv[1]); return 64; }
    }
    if (argc < 5) {
        fprintf(stderr, "usage: floor [--no-sort-indexes] [--metadata] DB RECORDS PER_PAGE object-trump|store-trump [PAGELOG]\n");
        return 64;
    }
    int per_page = atoi(argv[3]);
    int object_trump = strcmp(argv[4], "object-trump") == 0;
    if (!object_trump && strcmp(argv[4], "store-trump") != 0) { fprintf(stderr, "floor: unknown policy\n"); return 64; }
    if (per_page < 1 || per_page > SLOTS / 2) { fprintf(stderr, "floor: bad per-page\n"); return 64; }
    FILE *in = fopen(argv[2], "rb");
    if (!in) { perror(argv[2]); return 66; }
    FILE *pagelog = argc > 5 ? fopen(argv[5], "a") : NULL;
    char extras_path[4096], licenses_path[4096];
    FILE *xf = metadata ? fopen(beside(argv[2], "extras.bin", extras_path, sizeof extras_path), "rb") : NULL;
    if (metadata && !xf) { perror(extras_path); return 66; }

    open_catalog(argv[1], sort_indexes);
    prepare_all(object_trump);
    /* the bench's API key, "bench", as photosync records it: its FNV-1a as 16 hex digits */
    char fingerprint[17];
    Str api_key = {"bench", 5};
    snprintf(fingerprint, sizeof fingerprint, "%016llx", (unsigned long long)hash(&api_key));
    Str key = {fingerprint, 16};

    step_done(st.run_abandon, "abandon runs");
    sqlite3_bind_double(st.run_start, 1, wall() - SINCE_2001);
    step_done(st.run_start, "run start");
    int64_t run_id = sqlite3_last_insert_rowid(db);

    if (metadata) store_licenses(beside(argv[2], "licenses.tsv", licenses_path, sizeof licenses_path), &key);
    records_arena.p = malloc(records_arena.cap = 1 << 20);
    extras_arena.p = malloc(extras_arena.cap = 1 << 20);
    Record *recs = malloc(sizeof(Record) * per_page);
    Extras *ex = metadata ? malloc(sizeof(Extras) * per_page) : NULL;
    int64_t newest = INT64_MIN;
    double t0 = now();
    int got;
    while ((got = read_page(in, recs, xf, ex, per_page)) > 0) {
        save_page(recs, ex, got, object_trump);
        n.pages++;
        n.received += got;
        for (int i = 0; i < got; i++) if (recs[i].uploaded > newest) newest = recs[i].uploaded;
        record_page(run_id, &key);
        if (pagelog) fprintf(pagelog, "%.6f %ld\n", now(), n.pages);
    }
    /* Kept up to date when they exist (an unchanged title or time is never written again). */
    if (sort_indexes) exec(SORT_INDEXES);
    double seconds = now() - t0;

    sqlite3_bind_int64(st.run_finish, 1, run_id);
    sqlite3_bind_double(st.run_finish, 2, wall() - SINCE_2001);
    if (newest == INT64_MIN) sqlite3_bind_null(st.run_finish, 3);
    else sqlite3_bind_double(st.run_finish, 3, (double)newest - SINCE_2001);
    step_done(st.run_finish, "run finish");
    sqlite3_bind_double(st.old_calls, 1, wall() - SINCE_2001 - 86400);
    step_done(st.old_calls, "old api calls");

    for (int i = 0; i < n_prepared; i++) sqlite3_finalize(prepared[i]);
    if (sqlite3_close(db) != SQLITE_OK) die("close");
    if (pagelog) fclose(pagelog);
    printf("{\"pages\":%ld,\"received\":%ld,\"inserted\":%ld,\"updated\":%ld,\"unchanged\":%ld,\"skipped\":0,"
           "\"photographers_inserted\":%ld,\"photographers_removed\":%ld,\"seconds\":%.6f}\n",
           n.pages, n.received, n.inserted, n.updated, n.unchanged, n.ph_inserted, n.ph_removed, seconds);
    return 0;
}
