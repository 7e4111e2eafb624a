/*
 * The floor: photosync's import work written directly on the SQLite C API.
 *
 * Same logical work as `photosync fetch` (PageImporter + GraphStore save), with the records already
 * parsed and normalised (Benchmarks/feedcache.py writes them): per page of N photos, one
 * BEGIN IMMEDIATE transaction that
 *   - upserts one Photographer per distinct owner name (the page's first ownerID for that name;
 *     object-trump overwrites a stored ownerID that differs, store-trump keeps it);
 *   - upserts every Photo by its unique id (object-trump: the feed's title/subtitle/imageURL/
 *     uploaded/whoTook win, and a row is only written when a value differs; store-trump: the
 *     stored row wins, except a NULL whoTook is filled);
 *   - counts inserted / updated / unchanged photos and inserted photographers;
 * and, when a page updated photos, a second transaction that removes photographers left without
 * photos (PageImporter.removeOrphans). A FetchRun row is inserted before and finished after, as
 * photosync records its runs.
 *
 * Same schema (copied from a catalog photosync created: STRICT tables, the same unique and plain
 * indexes, deferred foreign keys), same durability: WAL, synchronous=NORMAL, foreign_keys=ON,
 * defer_foreign_keys per transaction, default page cache.
 *
 * usage: floor DB RECORDS PER_PAGE object-trump|store-trump [PAGELOG]
 * FLOOR_CACHE_KIB=N (environment, for experiments only; the benchmark never sets it) sets
 * PRAGMA cache_size = -N instead of SQLite's default (2 MiB), which photosync also uses.
 * Prints one JSON summary line on stdout. PAGELOG gets "<CLOCK_MONOTONIC seconds> <page>" after
 * each page's commit.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *SCHEMA =
    "CREATE TABLE \"Photo\" (\"id\" INTEGER PRIMARY KEY, \"unique\" TEXT NOT NULL DEFAULT '', "
    "\"title\" TEXT NOT NULL DEFAULT '', \"subtitle\" TEXT NOT NULL DEFAULT '', "
    "\"imageURL\" TEXT NOT NULL DEFAULT '', \"uploaded\" REAL, "
    "\"whoTook\" INTEGER REFERENCES \"Photographer\"(\"id\") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED) STRICT;"
    "CREATE TABLE \"Photographer\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT NOT NULL DEFAULT '', "
    "\"ownerID\" TEXT NOT NULL DEFAULT '') STRICT;"
    "CREATE TABLE \"FetchRun\" (\"id\" INTEGER PRIMARY KEY, \"started\" REAL NOT NULL DEFAULT 0.0, "
    "\"finished\" REAL, \"outcome\" TEXT NOT NULL DEFAULT 'running', \"pages\" INTEGER NOT NULL DEFAULT 0, "
    "\"received\" INTEGER NOT NULL DEFAULT 0, \"inserted\" INTEGER NOT NULL DEFAULT 0, "
    "\"updated\" INTEGER NOT NULL DEFAULT 0, \"unchanged\" INTEGER NOT NULL DEFAULT 0, "
    "\"skipped\" INTEGER NOT NULL DEFAULT 0, \"photographersInserted\" INTEGER NOT NULL DEFAULT 0, "
    "\"photographersRemoved\" INTEGER NOT NULL DEFAULT 0, \"error\" TEXT) STRICT;"
    "CREATE UNIQUE INDEX \"Photo_unique_unique\" ON \"Photo\" (\"unique\");"
    "CREATE INDEX \"Photo_title_index\" ON \"Photo\" (\"title\");"
    "CREATE INDEX \"Photo_uploaded_index\" ON \"Photo\" (\"uploaded\");"
    "CREATE INDEX \"Photo_whoTook_index\" ON \"Photo\" (\"whoTook\");"
    "CREATE UNIQUE INDEX \"Photographer_name_unique\" ON \"Photographer\" (\"name\");"
    "CREATE INDEX \"FetchRun_started_index\" ON \"FetchRun\" (\"started\");";

typedef struct { const char *p; int n; } Str;
typedef struct {
    int64_t uploaded; /* INT64_MIN: NULL */
    Str id, title, subtitle, url, owner_id, owner_name;
} Record;

static sqlite3 *db;

static void die(const char *what) {
    fprintf(stderr, "floor: %s: %s\n", what, db ? sqlite3_errmsg(db) : "?");
    exit(1);
}
static void exec(const char *sql) {
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) { fprintf(stderr, "floor: %s: %s\n", sql, err); exit(1); }
}
static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *s;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, NULL) != SQLITE_OK) die(sql);
    return s;
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

/* A page's records live in one arena, reused page after page. */
static char *arena;
static size_t arena_cap, arena_len;

static int read_str(FILE *f, Str *s) {
    uint32_t n;
    if (fread(&n, 4, 1, f) != 1) return 0;
    if (arena_len + n + 1 > arena_cap) return -1;
    if (n && fread(arena + arena_len, 1, n, f) != n) return 0;
    arena[arena_len + n] = 0;
    s->p = (const char *)(uintptr_t)arena_len; /* offset; fixed up once the page is read */
    s->n = (int)n;
    arena_len += n + 1;
    return 1;
}

/* Reads up to `want` records; returns how many. */
static int read_page(FILE *f, Record *recs, int want) {
    for (;;) {
        long start = ftell(f);
        int got = 0, overflow = 0;
        arena_len = 0;
        while (got < want) {
            Record *r = &recs[got];
            if (fread(&r->uploaded, 8, 1, f) != 1) break;
            Str *fields[6] = {&r->id, &r->title, &r->subtitle, &r->url, &r->owner_id, &r->owner_name};
            int ok = 1;
            for (int i = 0; i < 6 && ok == 1; i++) ok = read_str(f, fields[i]);
            if (ok == -1) { overflow = 1; break; }
            if (ok == 0) { fprintf(stderr, "floor: truncated records file\n"); exit(1); }
            got++;
        }
        if (overflow) { /* grow and re-read the page */
            arena_cap *= 2;
            arena = realloc(arena, arena_cap);
            fseek(f, start, SEEK_SET);
            continue;
        }
        for (int i = 0; i < got; i++) {
            Str *fields[6] = {&recs[i].id, &recs[i].title, &recs[i].subtitle, &recs[i].url, &recs[i].owner_id, &recs[i].owner_name};
            for (int j = 0; j < 6; j++) fields[j]->p = arena + (uintptr_t)fields[j]->p;
        }
        return got;
    }
}

/* Distinct owner names of one page: open addressing, reset per page. */
#define SLOTS 4096
static struct { const Str *name; int64_t id; } names[SLOTS];
static int used[SLOTS], n_used;

static uint64_t hash(const Str *s) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < s->n; i++) h = (h ^ (unsigned char)s->p[i]) * 1099511628211ULL;
    return h;
}

static void bind_str(sqlite3_stmt *s, int i, const Str *v) { sqlite3_bind_text(s, i, v->p, v->n, SQLITE_STATIC); }

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: floor DB RECORDS PER_PAGE object-trump|store-trump [PAGELOG]\n"); return 64; }
    int per_page = atoi(argv[3]);
    int object_trump = strcmp(argv[4], "object-trump") == 0;
    if (!object_trump && strcmp(argv[4], "store-trump") != 0) { fprintf(stderr, "floor: unknown policy\n"); return 64; }
    if (per_page < 1 || per_page > SLOTS / 2) { fprintf(stderr, "floor: bad per-page\n"); return 64; }
    FILE *in = fopen(argv[2], "rb");
    if (!in) { perror(argv[2]); return 66; }
    FILE *pagelog = argc > 5 ? fopen(argv[5], "a") : NULL;

    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) die("open");
    sqlite3_busy_timeout(db, 5000);
    exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;");
    if (getenv("FLOOR_CACHE_KIB")) {
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA cache_size = -%ld", atol(getenv("FLOOR_CACHE_KIB")));
        exec(pragma);
    }
    sqlite3_stmt *has = prepare("SELECT count(*) FROM sqlite_master WHERE name = 'Photo'");
    sqlite3_step(has);
    if (sqlite3_column_int(has, 0) == 0) exec(SCHEMA);
    sqlite3_finalize(has);

    sqlite3_stmt *begin = prepare("BEGIN IMMEDIATE"), *commit = prepare("COMMIT");
    sqlite3_stmt *defer = prepare("PRAGMA defer_foreign_keys = ON");
    sqlite3_stmt *max_photo = prepare("SELECT coalesce(max(\"id\"), 0) FROM \"Photo\"");
    sqlite3_stmt *find_owner = prepare("SELECT \"id\", \"ownerID\" FROM \"Photographer\" WHERE \"name\" = ?1");
    sqlite3_stmt *insert_owner = prepare("INSERT INTO \"Photographer\" (\"name\", \"ownerID\") VALUES (?1, ?2)");
    sqlite3_stmt *update_owner = prepare("UPDATE \"Photographer\" SET \"ownerID\" = ?2 WHERE \"id\" = ?1");
    sqlite3_stmt *upsert_photo = prepare(object_trump
        ? "INSERT INTO \"Photo\" (\"unique\", \"title\", \"subtitle\", \"imageURL\", \"uploaded\", \"whoTook\") "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (\"unique\") DO UPDATE SET "
          "\"title\" = excluded.\"title\", \"subtitle\" = excluded.\"subtitle\", \"imageURL\" = excluded.\"imageURL\", "
          "\"uploaded\" = excluded.\"uploaded\", \"whoTook\" = excluded.\"whoTook\" "
          "WHERE \"title\" IS NOT excluded.\"title\" OR \"subtitle\" IS NOT excluded.\"subtitle\" "
          "OR \"imageURL\" IS NOT excluded.\"imageURL\" OR \"uploaded\" IS NOT excluded.\"uploaded\" "
          "OR \"whoTook\" IS NOT excluded.\"whoTook\" RETURNING \"id\""
        : "INSERT INTO \"Photo\" (\"unique\", \"title\", \"subtitle\", \"imageURL\", \"uploaded\", \"whoTook\") "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (\"unique\") DO UPDATE SET \"whoTook\" = excluded.\"whoTook\" "
          "WHERE \"whoTook\" IS NULL RETURNING \"id\"");
    sqlite3_stmt *orphans = prepare(
        "DELETE FROM \"Photographer\" WHERE NOT EXISTS (SELECT 1 FROM \"Photo\" WHERE \"Photo\".\"whoTook\" = \"Photographer\".\"id\")");
    sqlite3_stmt *run_start = prepare("INSERT INTO \"FetchRun\" (\"started\") VALUES (?1)");
    sqlite3_stmt *run_finish = prepare(
        "UPDATE \"FetchRun\" SET \"finished\" = ?2, \"outcome\" = 'succeeded', \"pages\" = ?3, \"received\" = ?4, "
        "\"inserted\" = ?5, \"updated\" = ?6, \"unchanged\" = ?7, \"photographersInserted\" = ?8, "
        "\"photographersRemoved\" = ?9 WHERE \"id\" = ?1");

    sqlite3_bind_double(run_start, 1, wall());
    if (sqlite3_step(run_start) != SQLITE_DONE) die("run start");
    int64_t run_id = sqlite3_last_insert_rowid(db);

    arena_cap = 1 << 20;
    arena = malloc(arena_cap);
    Record *recs = malloc(sizeof(Record) * per_page);
    long pages = 0, received = 0, inserted = 0, updated = 0, unchanged = 0, ph_inserted = 0, ph_removed = 0;
    double t0 = now();
    int got;
    while ((got = read_page(in, recs, per_page)) > 0) {
        sqlite3_step(begin); sqlite3_reset(begin);
        sqlite3_step(defer); sqlite3_reset(defer);
        sqlite3_step(max_photo);
        int64_t max_before = sqlite3_column_int64(max_photo, 0);
        sqlite3_reset(max_photo);
        for (int i = 0; i < n_used; i++) names[used[i]].name = NULL;
        n_used = 0;
        long page_updated = 0;
        for (int i = 0; i < got; i++) {
            Record *r = &recs[i];
            /* the photographer: one per distinct name in the page, first ownerID wins (PageImporter) */
            uint64_t h = hash(&r->owner_name);
            int slot = (int)(h & (SLOTS - 1));
            while (names[slot].name && !(names[slot].name->n == r->owner_name.n && memcmp(names[slot].name->p, r->owner_name.p, r->owner_name.n) == 0))
                slot = (slot + 1) & (SLOTS - 1);
            if (!names[slot].name) {
                int64_t id;
                bind_str(find_owner, 1, &r->owner_name);
                if (sqlite3_step(find_owner) == SQLITE_ROW) {
                    id = sqlite3_column_int64(find_owner, 0);
                    const char *stored = (const char *)sqlite3_column_text(find_owner, 1);
                    int differs = (int)strlen(stored) != r->owner_id.n || memcmp(stored, r->owner_id.p, r->owner_id.n) != 0;
                    sqlite3_reset(find_owner);
                    if (object_trump && differs) {
                        sqlite3_bind_int64(update_owner, 1, id);
                        bind_str(update_owner, 2, &r->owner_id);
                        if (sqlite3_step(update_owner) != SQLITE_DONE) die("update photographer");
                        sqlite3_reset(update_owner);
                    }
                } else {
                    sqlite3_reset(find_owner);
                    bind_str(insert_owner, 1, &r->owner_name);
                    bind_str(insert_owner, 2, &r->owner_id);
                    if (sqlite3_step(insert_owner) != SQLITE_DONE) die("insert photographer");
                    sqlite3_reset(insert_owner);
                    id = sqlite3_last_insert_rowid(db);
                    ph_inserted++;
                }
                names[slot].name = &r->owner_name;
                names[slot].id = id;
                used[n_used++] = slot;
            }
            /* the photo */
            bind_str(upsert_photo, 1, &r->id);
            bind_str(upsert_photo, 2, &r->title);
            bind_str(upsert_photo, 3, &r->subtitle);
            bind_str(upsert_photo, 4, &r->url);
            if (r->uploaded == INT64_MIN) sqlite3_bind_null(upsert_photo, 5);
            else sqlite3_bind_double(upsert_photo, 5, (double)r->uploaded);
            sqlite3_bind_int64(upsert_photo, 6, names[slot].id);
            int rc = sqlite3_step(upsert_photo);
            if (rc == SQLITE_ROW) {
                if (sqlite3_column_int64(upsert_photo, 0) > max_before) inserted++;
                else { updated++; page_updated++; }
                rc = sqlite3_step(upsert_photo);
            } else {
                unchanged++;
            }
            if (rc != SQLITE_DONE) die("upsert photo");
            sqlite3_reset(upsert_photo);
        }
        sqlite3_clear_bindings(upsert_photo);
        if (sqlite3_step(commit) != SQLITE_DONE) die("commit");
        sqlite3_reset(commit);
        if (page_updated > 0) { /* photographers a photo left behind */
            sqlite3_step(begin); sqlite3_reset(begin);
            if (sqlite3_step(orphans) != SQLITE_DONE) die("orphans");
            ph_removed += sqlite3_changes(db);
            sqlite3_reset(orphans);
            if (sqlite3_step(commit) != SQLITE_DONE) die("commit");
            sqlite3_reset(commit);
        }
        pages++;
        received += got;
        if (pagelog) fprintf(pagelog, "%.6f %ld\n", now(), pages);
    }
    double seconds = now() - t0;

    sqlite3_bind_int64(run_finish, 1, run_id);
    sqlite3_bind_double(run_finish, 2, wall());
    sqlite3_bind_int64(run_finish, 3, pages);
    sqlite3_bind_int64(run_finish, 4, received);
    sqlite3_bind_int64(run_finish, 5, inserted);
    sqlite3_bind_int64(run_finish, 6, updated);
    sqlite3_bind_int64(run_finish, 7, unchanged);
    sqlite3_bind_int64(run_finish, 8, ph_inserted);
    sqlite3_bind_int64(run_finish, 9, ph_removed);
    if (sqlite3_step(run_finish) != SQLITE_DONE) die("run finish");

    sqlite3_stmt *all[] = {begin, commit, defer, max_photo, find_owner, insert_owner, update_owner, upsert_photo, orphans, run_start, run_finish};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) sqlite3_finalize(all[i]);
    if (sqlite3_close(db) != SQLITE_OK) die("close");
    if (pagelog) fclose(pagelog);
    printf("{\"pages\":%ld,\"received\":%ld,\"inserted\":%ld,\"updated\":%ld,\"unchanged\":%ld,\"skipped\":0,"
           "\"photographers_inserted\":%ld,\"photographers_removed\":%ld,\"seconds\":%.6f}\n",
           pages, received, inserted, updated, unchanged, ph_inserted, ph_removed, seconds);
    return 0;
}
