/*
 * The query floor: `photosync list --photographer NAME` written directly on the SQLite C API.
 *
 * The least work that prints the same rows: open the catalog read-only, read the photographer's
 * photos in photosync's order (title, then the id as a number) and print id, title, name and the
 * upload time (ISO 8601, UTC) one photo a line (tabs and line breaks in a title become spaces, as
 * in photosync's table). It reads only the printed columns and does not align them, so the gap to
 * photosync is everything photosync adds, process start included.
 *
 * usage: list_floor DB NAME
 * Prints the rows on stdout; exits 0, or 1 with a message on stderr.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <time.h>

static const char *QUERY =
    "SELECT \"unique\", \"title\", \"uploaded\" FROM \"Photo\" "
    "WHERE \"whoTook\" IN (SELECT \"id\" FROM \"Photographer\" WHERE \"name\" = ?1) "
    "ORDER BY \"title\" ASC, length(\"unique\") ASC, \"unique\" ASC, \"id\" ASC";

/* The title on one line: tabs and ASCII line breaks become spaces, as in photosync's table. */
static void put_title(const unsigned char *title) {
    for (; *title; title++) putchar(*title >= '\t' && *title <= '\r' ? ' ' : *title);
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: list_floor DB NAME\n"); return 1; }
    sqlite3 *db;
    sqlite3_stmt *list;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK
        || sqlite3_prepare_v2(db, QUERY, -1, &list, NULL) != SQLITE_OK) {
        fprintf(stderr, "list_floor: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    static char out[1 << 16];
    setvbuf(stdout, out, _IOFBF, sizeof out);
    sqlite3_bind_text(list, 1, argv[2], -1, SQLITE_STATIC);
    int code;
    while ((code = sqlite3_step(list)) == SQLITE_ROW) {
        char uploaded[32] = "-";
        struct tm utc;
        time_t seconds = (time_t)floor(sqlite3_column_double(list, 2));
        if (sqlite3_column_type(list, 2) != SQLITE_NULL && gmtime_r(&seconds, &utc))
            strftime(uploaded, sizeof uploaded, "%Y-%m-%dT%H:%M:%SZ", &utc);
        printf("%s  ", (const char *)sqlite3_column_text(list, 0));
        put_title(sqlite3_column_text(list, 1));
        printf("  %s  %s\n", argv[2], uploaded);
    }
    if (code != SQLITE_DONE) { fprintf(stderr, "list_floor: %s\n", sqlite3_errmsg(db)); return 1; }
    sqlite3_finalize(list);
    sqlite3_close(db);
    return fflush(stdout) == 0 ? 0 : 1;
}
