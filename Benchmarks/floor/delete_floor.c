/*
 * The delete floor: `photosync delete ID...` written directly on the SQLite C API, with one
 * prepared DELETE per id (issue 24's yardstick).
 *
 * In one transaction, as photosync: for every id, one prepared DELETE of the photo (its
 * photographer's id kept), one prepared INSERT of its tombstone (ExcludedPhoto: the id, no
 * photographer, the time); then the photographers those deletes left without photos are
 * deleted, one prepared statement each. Foreign keys on and deferred, WAL, synchronous=NORMAL.
 * An id that is not in the catalog fails the whole delete (rolled back, exit 1), as photosync.
 *
 * usage: delete_floor DB IDS_FILE   (one id per line)
 * Prints {"photos":N,"photographers":M,"seconds":S} on stdout.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SINCE_2001 978307200.0

static sqlite3 *db;

static void die(const char *what) {
    fprintf(stderr, "delete_floor: %s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
}
static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *s;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, NULL) != SQLITE_OK) die(sql);
    return s;
}
static void exec(const char *sql) {
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) die(sql);
}
static double now(int clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}
static int cmp64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: delete_floor DB IDS_FILE\n"); return 64; }
    FILE *in = fopen(argv[2], "r");
    if (!in) { perror(argv[2]); return 66; }
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) die("open");
    exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;");
    double t0 = now(CLOCK_MONOTONIC);
    sqlite3_stmt *photo = prepare("DELETE FROM \"Photo\" WHERE \"unique\" = ?1 RETURNING \"whoTook\"");
    sqlite3_stmt *tomb = prepare("INSERT INTO \"ExcludedPhoto\" (\"unique\", \"photographer\", \"excluded\") VALUES (?1, NULL, ?2)");
    sqlite3_stmt *orphan = prepare("DELETE FROM \"Photographer\" WHERE \"id\" = ?1 "
                                   "AND NOT EXISTS (SELECT 1 FROM \"Photo\" WHERE \"whoTook\" = ?1)");
    exec("BEGIN IMMEDIATE; PRAGMA defer_foreign_keys = ON;");
    double excluded = now(CLOCK_REALTIME) - SINCE_2001;
    size_t cap = 1024, count = 0;
    int64_t *owners = malloc(cap * sizeof *owners);
    long photos = 0, photographers = 0;
    char line[256];
    while (fgets(line, sizeof line, in)) {
        size_t len = strcspn(line, "\r\n");
        if (len == 0) continue;
        sqlite3_bind_text(photo, 1, line, (int)len, SQLITE_STATIC);
        int rc = sqlite3_step(photo);
        if (rc != SQLITE_ROW) {
            if (rc == SQLITE_DONE) { fprintf(stderr, "delete_floor: not in the catalog: %.*s\n", (int)len, line); exec("ROLLBACK"); return 1; }
            die("delete photo");
        }
        if (sqlite3_column_type(photo, 0) != SQLITE_NULL) {
            if (count == cap) owners = realloc(owners, (cap *= 2) * sizeof *owners);
            owners[count++] = sqlite3_column_int64(photo, 0);
        }
        if (sqlite3_step(photo) != SQLITE_DONE) die("delete photo");
        sqlite3_reset(photo);
        sqlite3_bind_text(tomb, 1, line, (int)len, SQLITE_STATIC);
        sqlite3_bind_double(tomb, 2, excluded);
        if (sqlite3_step(tomb) != SQLITE_DONE) die("tombstone");
        sqlite3_reset(tomb);
        photos++;
    }
    qsort(owners, count, sizeof *owners, cmp64);
    for (size_t i = 0; i < count; i++) {
        if (i > 0 && owners[i] == owners[i - 1]) continue;
        sqlite3_bind_int64(orphan, 1, owners[i]);
        if (sqlite3_step(orphan) != SQLITE_DONE) die("photographer");
        photographers += sqlite3_changes(db);
        sqlite3_reset(orphan);
    }
    exec("COMMIT");
    double seconds = now(CLOCK_MONOTONIC) - t0;
    sqlite3_finalize(photo);
    sqlite3_finalize(tomb);
    sqlite3_finalize(orphan);
    if (sqlite3_close(db) != SQLITE_OK) die("close");
    printf("{\"photos\":%ld,\"photographers\":%ld,\"seconds\":%.6f}\n", photos, photographers, seconds);
    return 0;
}
