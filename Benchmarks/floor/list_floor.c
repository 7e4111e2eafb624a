/*
 * The query floor: `photosync list` written directly on the SQLite C API.
 *
 * The least work that prints the same rows: open the catalog read-only, read the photos with one
 * prepared statement in photosync's order and print id, title, photographer and the upload time
 * (ISO 8601, UTC) one photo a line (tabs and line breaks in a title become spaces, as in
 * photosync's table). It reads only the printed columns and does not align them, so the gap to
 * photosync is everything photosync adds, process start included.
 *
 * photosync's order (Catalog.sortKeys, GraphStore's SQLCompiler.orderBy), ties broken by the photo
 * id as a number (the graphstore_numeric collation: for ids that are plain numbers, as the feed's
 * are, shorter first, then byte by byte), then by the row id:
 *   --sort title (the default): the title's sort key (`titleKey`, catalog model 8, which photosync
 *                    stores), then the title (bytes), then the id as a number;
 *   --sort uploaded: upload time descending, newest first, photos without one last (SQLite's
 *                    DESC order of NULL), then the id as a number.
 * --photographer selects with `whoTook = (SELECT id ... WHERE name = ?)`, as GraphStore compiles
 * `.whose` on a unique key; without it the photographer's name is read per printed row.
 * Stored times are seconds since 2001 (GraphStore's encoding).
 *
 * usage: list_floor DB [--photographer NAME] [--sort title|uploaded] [--limit N]
 * Prints the rows on stdout; exits 0, or 1 with a message on stderr.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SINCE_2001 978307200.0

static const char *BY_TITLE = " ORDER BY \"titleKey\" ASC, \"title\" ASC, length(\"unique\") ASC, \"unique\" ASC, \"id\" ASC";
static const char *BY_UPLOADED = " ORDER BY \"uploaded\" DESC, length(\"unique\") ASC, \"unique\" ASC, \"id\" ASC";

/* The title on one line: tabs and ASCII line breaks become spaces, as in photosync's table. */
static void put_title(const unsigned char *title) {
    for (; *title; title++) putchar(*title >= '\t' && *title <= '\r' ? ' ' : *title);
}

static int usage(void) {
    fprintf(stderr, "usage: list_floor DB [--photographer NAME] [--sort title|uploaded] [--limit N]\n");
    return 1;
}

int main(int argc, char **argv) {
    const char *name = NULL, *order = BY_TITLE;
    long limit = -1;
    if (argc < 2 || argc % 2 != 0) return usage();
    for (int i = 2; i < argc; i += 2) {
        if (strcmp(argv[i], "--photographer") == 0) name = argv[i + 1];
        else if (strcmp(argv[i], "--limit") == 0 && (limit = atol(argv[i + 1])) > 0) continue;
        else if (strcmp(argv[i], "--sort") == 0 && strcmp(argv[i + 1], "title") == 0) order = BY_TITLE;
        else if (strcmp(argv[i], "--sort") == 0 && strcmp(argv[i + 1], "uploaded") == 0) order = BY_UPLOADED;
        else return usage();
    }
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT \"unique\", \"title\", \"uploaded\"%s FROM \"Photo\"%s%s LIMIT ?2",
             name ? "" : ", (SELECT \"name\" FROM \"Photographer\" WHERE \"id\" = \"Photo\".\"whoTook\")",
             name ? " WHERE \"whoTook\" = (SELECT \"id\" FROM \"Photographer\" WHERE \"name\" = ?1)" : "", order);
    sqlite3 *db;
    sqlite3_stmt *list;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK
        || sqlite3_prepare_v2(db, sql, -1, &list, NULL) != SQLITE_OK) {
        fprintf(stderr, "list_floor: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    static char out[1 << 16];
    setvbuf(stdout, out, _IOFBF, sizeof out);
    if (name) sqlite3_bind_text(list, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(list, 2, limit);
    int code;
    while ((code = sqlite3_step(list)) == SQLITE_ROW) {
        char uploaded[32] = "-";
        struct tm utc;
        time_t seconds = (time_t)floor(sqlite3_column_double(list, 2) + SINCE_2001);
        if (sqlite3_column_type(list, 2) != SQLITE_NULL && gmtime_r(&seconds, &utc))
            strftime(uploaded, sizeof uploaded, "%Y-%m-%dT%H:%M:%SZ", &utc);
        printf("%s  ", (const char *)sqlite3_column_text(list, 0));
        put_title(sqlite3_column_text(list, 1));
        const unsigned char *who = name ? (const unsigned char *)name : sqlite3_column_text(list, 3);
        printf("  %s  %s\n", who ? (const char *)who : "", uploaded);
    }
    if (code != SQLITE_DONE) { fprintf(stderr, "list_floor: %s\n", sqlite3_errmsg(db)); return 1; }
    sqlite3_finalize(list);
    sqlite3_close(db);
    return fflush(stdout) == 0 ? 0 : 1;
}
