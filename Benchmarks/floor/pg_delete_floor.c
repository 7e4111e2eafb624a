/*
 * The PostgreSQL delete floor: delete_floor.c's work on libpq, one prepared DELETE per id.
 *
 * In one transaction (SERIALIZABLE, as photosync's writes): for every id, one prepared DELETE of
 * the photo returning its photographer's id, one prepared INSERT of its tombstone
 * (ExcludedPhoto: the id, no photographer, the time); then the photographers those deletes left
 * without photos, one prepared statement each. An id that is not in the catalog fails the whole
 * delete (rolled back, exit 1), as photosync. Every value is a bound parameter.
 *
 * usage: pg_delete_floor CONNINFO IDS_FILE   (one id per line)
 * Prints {"photos":N,"photographers":M,"seconds":S} on stdout.
 */
#include <libpq-fe.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SINCE_2001 978307200.0

static PGconn *db;

static void die(const char *what, PGresult *r) {
    fprintf(stderr, "pg_delete_floor: %s: %s\n", what, r ? PQresultErrorMessage(r) : PQerrorMessage(db));
    exit(1);
}
static PGresult *run(const char *name, const char *sql, int n, const char *const *params) {
    PGresult *r = name ? PQexecPrepared(db, name, n, params, NULL, NULL, 0) : PQexecParams(db, sql, n, NULL, params, NULL, NULL, 0);
    ExecStatusType status = PQresultStatus(r);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) die(name ? name : sql, r);
    return r;
}
static void prepare(const char *name, const char *sql) {
    PGresult *r = PQprepare(db, name, sql, 0, NULL);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) die(name, r);
    PQclear(r);
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
    if (argc != 3) { fprintf(stderr, "usage: pg_delete_floor CONNINFO IDS_FILE\n"); return 64; }
    FILE *in = fopen(argv[2], "r");
    if (!in) { perror(argv[2]); return 66; }
    db = PQconnectdb(argv[1]);
    if (PQstatus(db) != CONNECTION_OK) die("connect", NULL);
    double t0 = now(CLOCK_MONOTONIC);
    prepare("photo", "DELETE FROM \"Photo\" WHERE \"unique\" = $1 RETURNING \"whoTook\"");
    prepare("tomb", "INSERT INTO \"ExcludedPhoto\" (\"unique\", \"photographer\", \"excluded\") VALUES ($1, NULL, $2)");
    prepare("orphan", "DELETE FROM \"Photographer\" WHERE \"id\" = $1 AND NOT EXISTS (SELECT 1 FROM \"Photo\" WHERE \"whoTook\" = $1)");
    PQclear(run(NULL, "BEGIN ISOLATION LEVEL SERIALIZABLE", 0, NULL));
    PQclear(run(NULL, "SET CONSTRAINTS ALL DEFERRED", 0, NULL));
    char excluded[32];
    snprintf(excluded, sizeof excluded, "%.17g", now(CLOCK_REALTIME) - SINCE_2001);
    size_t cap = 1024, count = 0;
    int64_t *owners = malloc(cap * sizeof *owners);
    long photos = 0, photographers = 0;
    char line[256];
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!*line) continue;
        const char *id[] = {line};
        PGresult *r = run("photo", NULL, 1, id);
        if (PQntuples(r) != 1) { fprintf(stderr, "pg_delete_floor: not in the catalog: %s\n", line); PQclear(run(NULL, "ROLLBACK", 0, NULL)); return 1; }
        if (!PQgetisnull(r, 0, 0)) {
            if (count == cap) owners = realloc(owners, (cap *= 2) * sizeof *owners);
            owners[count++] = atoll(PQgetvalue(r, 0, 0));
        }
        PQclear(r);
        const char *tomb[] = {line, excluded};
        PQclear(run("tomb", NULL, 2, tomb));
        photos++;
    }
    qsort(owners, count, sizeof *owners, cmp64);
    for (size_t i = 0; i < count; i++) {
        if (i > 0 && owners[i] == owners[i - 1]) continue;
        char owner[24];
        snprintf(owner, sizeof owner, "%lld", (long long)owners[i]);
        const char *params[] = {owner};
        PGresult *r = run("orphan", NULL, 1, params);
        photographers += atol(PQcmdTuples(r));
        PQclear(r);
    }
    PQclear(run(NULL, "COMMIT", 0, NULL));
    double seconds = now(CLOCK_MONOTONIC) - t0;
    PQfinish(db);
    printf("{\"photos\":%ld,\"photographers\":%ld,\"seconds\":%.6f}\n", photos, photographers, seconds);
    return 0;
}
