/*
 * The links floor: the work of Benchmarks/links/main.swift (an import session giving notes'
 * many-to-many label sets) written directly on the SQLite C API.
 *
 * Same notes, labels and sets (labels of note i: 0 to 5 of 1,000, shifted by one for even notes
 * after a change), same schema (the driver creates it from the GraphStore store's own
 * sqlite_master), same durability (WAL, synchronous=NORMAL, foreign keys on). Per page of 500
 * notes, one BEGIN IMMEDIATE transaction that
 *   - finds or inserts each label the page names (ids kept across pages, as the session
 *     remembers the rows records link to);
 *   - finds each note by slug: inserts it (with its title) or updates a title that differs;
 *   - for a stored note, reads its pairs and deletes those not in its set; inserts the pairs of
 *     its set that are missing (all of them for a new note);
 *   - counts notes inserted / updated (title or pairs changed) / unchanged.
 *
 * usage: links_floor DB SCHEMA_SQL NOTES first|changed|same
 * SCHEMA_SQL is run once when DB is new. Prints one JSON line with the counts.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LABELS 1000
#define PAGE 500

static sqlite3 *db;

static void die(const char *what) {
    fprintf(stderr, "links_floor: %s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
}
static void exec(const char *sql) {
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) die(sql);
}
static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *s;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, NULL) != SQLITE_OK) die(sql);
    return s;
}
static void step_done(sqlite3_stmt *s) {
    if (sqlite3_step(s) != SQLITE_DONE) die("step");
    sqlite3_reset(s);
}

/* The labels of note `note`, as in main.swift; returns how many. */
static int labels_of(int note, int changed, int *out) {
    int shift = changed && note % 2 == 0 ? 1 : 0, n = note % 6;
    for (int j = 0; j < n; j++) out[j] = (note * 7 + j * 131 + shift) % LABELS;
    return n;
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc(n + 1);
    if (fread(text, 1, n, f) != (size_t)n) { perror(path); exit(1); }
    text[n] = 0;
    fclose(f);
    return text;
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: links_floor DB SCHEMA_SQL NOTES first|changed|same\n"); return 2; }
    int notes = atoi(argv[3]), changed = strcmp(argv[4], "first") != 0;
    if (sqlite3_open(argv[1], &db) != SQLITE_OK) die("open");
    exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;");
    sqlite3_stmt *tables = prepare("SELECT count(*) FROM sqlite_master WHERE name = 'Note'");
    if (sqlite3_step(tables) != SQLITE_ROW) die("schema");
    if (sqlite3_column_int(tables, 0) == 0) exec(read_file(argv[2]));
    sqlite3_finalize(tables);

    sqlite3_stmt *begin = prepare("BEGIN IMMEDIATE"), *commit = prepare("COMMIT");
    sqlite3_stmt *find_label = prepare("SELECT \"id\" FROM \"Label\" WHERE \"name\" = ?");
    sqlite3_stmt *insert_label = prepare("INSERT INTO \"Label\" (\"name\") VALUES (?)");
    sqlite3_stmt *find_note = prepare("SELECT \"id\", \"title\" FROM \"Note\" WHERE \"slug\" = ?");
    sqlite3_stmt *insert_note = prepare("INSERT INTO \"Note\" (\"slug\", \"title\") VALUES (?, ?)");
    sqlite3_stmt *update_note = prepare("UPDATE \"Note\" SET \"title\" = ? WHERE \"id\" = ?");
    sqlite3_stmt *pairs = prepare("SELECT \"id\", \"Label\" FROM \"Note_labels\" WHERE \"Note\" = ?");
    sqlite3_stmt *unpair = prepare("DELETE FROM \"Note_labels\" WHERE \"id\" = ?");
    sqlite3_stmt *pair = prepare("INSERT INTO \"Note_labels\" (\"Note\", \"Label\") VALUES (?, ?)");

    static int64_t label_id[LABELS]; /* 0: not known yet */
    long inserted = 0, updated = 0, unchanged = 0;
    char slug[32], title[32], name[16];
    for (int start = 0; start < notes; start += PAGE) {
        step_done(begin);
        int end = start + PAGE < notes ? start + PAGE : notes;
        for (int note = start; note < end; note++) {
            int set[6], n = labels_of(note, changed, set);
            int64_t wanted[6];
            for (int j = 0; j < n; j++) {
                int label = set[j];
                if (!label_id[label]) {
                    snprintf(name, sizeof name, "label-%04d", label);
                    sqlite3_bind_text(find_label, 1, name, -1, SQLITE_STATIC);
                    if (sqlite3_step(find_label) == SQLITE_ROW) {
                        label_id[label] = sqlite3_column_int64(find_label, 0);
                    } else {
                        sqlite3_bind_text(insert_label, 1, name, -1, SQLITE_STATIC);
                        step_done(insert_label);
                        label_id[label] = sqlite3_last_insert_rowid(db);
                    }
                    sqlite3_reset(find_label);
                }
                wanted[j] = label_id[label];
            }
            snprintf(slug, sizeof slug, "note-%07d", note);
            snprintf(title, sizeof title, "Note %d", note);
            sqlite3_bind_text(find_note, 1, slug, -1, SQLITE_STATIC);
            int64_t id;
            int is_new = sqlite3_step(find_note) != SQLITE_ROW, changes = 0;
            if (is_new) {
                sqlite3_reset(find_note);
                sqlite3_bind_text(insert_note, 1, slug, -1, SQLITE_STATIC);
                sqlite3_bind_text(insert_note, 2, title, -1, SQLITE_STATIC);
                step_done(insert_note);
                id = sqlite3_last_insert_rowid(db);
            } else {
                id = sqlite3_column_int64(find_note, 0);
                int same = strcmp((const char *)sqlite3_column_text(find_note, 1), title) == 0;
                sqlite3_reset(find_note);
                if (!same) {
                    sqlite3_bind_text(update_note, 1, title, -1, SQLITE_STATIC);
                    sqlite3_bind_int64(update_note, 2, id);
                    step_done(update_note);
                    changes = 1;
                }
            }
            int present[6] = {0}, gone = 0;
            int64_t stale[64];
            if (!is_new) { /* the stored pairs read first, deleted after (not while the cursor walks them) */
                sqlite3_bind_int64(pairs, 1, id);
                while (sqlite3_step(pairs) == SQLITE_ROW) {
                    int64_t row = sqlite3_column_int64(pairs, 0), label = sqlite3_column_int64(pairs, 1);
                    int keep = 0;
                    for (int j = 0; j < n; j++) if (wanted[j] == label) { present[j] = keep = 1; }
                    if (!keep && gone < 64) stale[gone++] = row;
                }
                sqlite3_reset(pairs);
            }
            for (int k = 0; k < gone; k++) {
                sqlite3_bind_int64(unpair, 1, stale[k]);
                step_done(unpair);
                changes = 1;
            }
            for (int j = 0; j < n; j++) {
                if (present[j]) continue;
                sqlite3_bind_int64(pair, 1, id);
                sqlite3_bind_int64(pair, 2, wanted[j]);
                step_done(pair);
                if (!is_new) changes = 1;
            }
            if (is_new) inserted++; else if (changes) updated++; else unchanged++;
        }
        step_done(commit);
    }
    printf("{\"inserted\":%ld,\"updated\":%ld,\"unchanged\":%ld}\n", inserted, updated, unchanged);
    return 0;
}
