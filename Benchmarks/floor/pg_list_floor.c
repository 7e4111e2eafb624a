/*
 * The PostgreSQL query floor: `photosync list --photographer NAME` on libpq (list_floor.c's work).
 *
 * The least work that prints the same rows: connect with the same connection string (libpq's
 * defaults, as photosync: TLS when the server offers it, SCRAM), send photosync's own query for
 * the photographer's photos in its default order (the title's sort key, the title, the id as a
 * number, GraphStore's PostgreSQL ORDER BY), the name bound as a parameter, and print id, title,
 * photographer and upload time one photo a line. No schema check, no model, no table layout: the
 * gap to photosync is what a photosync command adds to one PostgreSQL query, process start included.
 *
 * usage: pg_list_floor CONNINFO NAME
 * Prints the rows on stdout; exits 0, or 1 with a message on stderr.
 */
#include <libpq-fe.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SINCE_2001 978307200.0

static const char *QUERY =
    "SELECT \"unique\", \"title\", \"uploaded\" FROM \"Photo\""
    " WHERE \"whoTook\" = (SELECT \"id\" FROM \"Photographer\" WHERE \"name\" = $1)"
    " ORDER BY \"titleKey\" ASC NULLS FIRST, \"title\" ASC NULLS FIRST,"
    " (CASE WHEN \"unique\" ~ '^[1-9][0-9]*$' THEN '0' || lpad(length(\"unique\")::text, 10, '0') || \"unique\""
    " ELSE graphstore_numeric_key(\"unique\") END) COLLATE \"C\" ASC NULLS FIRST, \"unique\" ASC NULLS FIRST, \"id\" ASC";

/* The title on one line: tabs and ASCII line breaks become spaces, as in photosync's table. */
static void put_title(const char *title) {
    for (; *title; title++) putchar(*title >= '\t' && *title <= '\r' ? ' ' : *title);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: pg_list_floor CONNINFO NAME\n");
        return 1;
    }
    PGconn *db = PQconnectdb(argv[1]);
    if (PQstatus(db) != CONNECTION_OK) {
        fprintf(stderr, "pg_list_floor: %s", PQerrorMessage(db));
        return 1;
    }
    const char *params[1] = {argv[2]};
    PGresult *rows = PQexecParams(db, QUERY, 1, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(rows) != PGRES_TUPLES_OK) {
        fprintf(stderr, "pg_list_floor: %s", PQresultErrorMessage(rows));
        return 1;
    }
    static char out[1 << 16];
    setvbuf(stdout, out, _IOFBF, sizeof out);
    for (int row = 0; row < PQntuples(rows); row++) {
        char uploaded[32] = "-";
        struct tm utc;
        time_t seconds = (time_t)floor(atof(PQgetvalue(rows, row, 2)) + SINCE_2001);
        if (!PQgetisnull(rows, row, 2) && gmtime_r(&seconds, &utc)) strftime(uploaded, sizeof uploaded, "%Y-%m-%dT%H:%M:%SZ", &utc);
        printf("%s  ", PQgetvalue(rows, row, 0));
        put_title(PQgetvalue(rows, row, 1));
        printf("  %s  %s\n", argv[2], uploaded);
    }
    PQclear(rows);
    PQfinish(db);
    return fflush(stdout) == 0 ? 0 : 1;
}
