#include "clibpq.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    PGconn *(*connectdb)(const char *);
    ConnStatusType (*status)(const PGconn *);
    char *(*error_message)(const PGconn *);
    void (*finish)(PGconn *);
    PGTransactionStatusType (*transaction_status)(const PGconn *);
    PQnoticeProcessor (*set_notice_processor)(PGconn *, PQnoticeProcessor, void *);
    PGresult *(*exec)(PGconn *, const char *);
    PGresult *(*prepare)(PGconn *, const char *, const char *, int, const Oid *);
    PGresult *(*exec_prepared)(PGconn *, const char *, int, const char *const *, const int *, const int *, int);
    PGresult *(*exec_params)(PGconn *, const char *, int, const Oid *, const char *const *, const int *, const int *, int);
    ExecStatusType (*result_status)(const PGresult *);
    char *(*result_error_field)(const PGresult *, int);
    char *(*result_error_message)(const PGresult *);
    int (*ntuples)(const PGresult *);
    int (*nfields)(const PGresult *);
    Oid (*ftype)(const PGresult *, int);
    char *(*getvalue)(const PGresult *, int, int);
    int (*getlength)(const PGresult *, int, int);
    int (*getisnull)(const PGresult *, int, int);
    char *(*cmd_tuples)(PGresult *);
    void (*clear)(PGresult *);
    int (*socket)(const PGconn *);
    int (*consume_input)(PGconn *);
    PGnotify *(*notifies)(PGconn *);
    void (*freemem)(void *);
    PGcancel *(*get_cancel)(PGconn *);
    int (*cancel)(PGcancel *, char *, int);
    void (*free_cancel)(PGcancel *);
} pq;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256] = "libpq not loaded";
static int loaded;

static int resolve(void *library, const char *name, void **slot) {
    *slot = dlsym(library, name);
    if (*slot) return 1;
    snprintf(load_error, sizeof load_error, "libpq has no %s", name);
    return 0;
}

static void load(void) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "cannot load libpq (install libpq5): %s", reason ? reason : "libpq.so.5 not found");
        return;
    }
    loaded = resolve(library, "PQconnectdb", (void **)&pq.connectdb)
        && resolve(library, "PQstatus", (void **)&pq.status)
        && resolve(library, "PQerrorMessage", (void **)&pq.error_message)
        && resolve(library, "PQfinish", (void **)&pq.finish)
        && resolve(library, "PQtransactionStatus", (void **)&pq.transaction_status)
        && resolve(library, "PQsetNoticeProcessor", (void **)&pq.set_notice_processor)
        && resolve(library, "PQexec", (void **)&pq.exec)
        && resolve(library, "PQprepare", (void **)&pq.prepare)
        && resolve(library, "PQexecPrepared", (void **)&pq.exec_prepared)
        && resolve(library, "PQexecParams", (void **)&pq.exec_params)
        && resolve(library, "PQresultStatus", (void **)&pq.result_status)
        && resolve(library, "PQresultErrorField", (void **)&pq.result_error_field)
        && resolve(library, "PQresultErrorMessage", (void **)&pq.result_error_message)
        && resolve(library, "PQntuples", (void **)&pq.ntuples)
        && resolve(library, "PQnfields", (void **)&pq.nfields)
        && resolve(library, "PQftype", (void **)&pq.ftype)
        && resolve(library, "PQgetvalue", (void **)&pq.getvalue)
        && resolve(library, "PQgetlength", (void **)&pq.getlength)
        && resolve(library, "PQgetisnull", (void **)&pq.getisnull)
        && resolve(library, "PQcmdTuples", (void **)&pq.cmd_tuples)
        && resolve(library, "PQclear", (void **)&pq.clear)
        && resolve(library, "PQsocket", (void **)&pq.socket)
        && resolve(library, "PQconsumeInput", (void **)&pq.consume_input)
        && resolve(library, "PQnotifies", (void **)&pq.notifies)
        && resolve(library, "PQfreemem", (void **)&pq.freemem)
        && resolve(library, "PQgetCancel", (void **)&pq.get_cancel)
        && resolve(library, "PQcancel", (void **)&pq.cancel)
        && resolve(library, "PQfreeCancel", (void **)&pq.free_cancel);
}

int cpq_load(char *error, size_t capacity) {
    pthread_once(&once, load);
    if (loaded) return 0;
    if (capacity) snprintf(error, capacity, "%s", load_error);
    return -1;
}

PGconn *cpq_connectdb(const char *conninfo) { return pq.connectdb(conninfo); }
ConnStatusType cpq_status(const PGconn *conn) { return pq.status(conn); }
const char *cpq_error_message(const PGconn *conn) { return pq.error_message(conn); }
void cpq_finish(PGconn *conn) { pq.finish(conn); }
PGTransactionStatusType cpq_transaction_status(const PGconn *conn) { return pq.transaction_status(conn); }

static void ignore_notice(void *context, const char *message) {
    (void)context;
    (void)message;
}

void cpq_silence_notices(PGconn *conn) { pq.set_notice_processor(conn, ignore_notice, NULL); }

PGresult *cpq_exec(PGconn *conn, const char *command) { return pq.exec(conn, command); }

PGresult *cpq_prepare(PGconn *conn, const char *name, const char *query, int count, const Oid *types) {
    return pq.prepare(conn, name, query, count, types);
}

PGresult *cpq_exec_prepared(PGconn *conn, const char *name, int count, const char *const *values,
                            const int *lengths, const int *formats, int resultFormat) {
    return pq.exec_prepared(conn, name, count, values, lengths, formats, resultFormat);
}

PGresult *cpq_exec_params(PGconn *conn, const char *command, int count, const Oid *types,
                          const char *const *values, const int *lengths, const int *formats, int resultFormat) {
    return pq.exec_params(conn, command, count, types, values, lengths, formats, resultFormat);
}

ExecStatusType cpq_result_status(const PGresult *result) { return pq.result_status(result); }
const char *cpq_sqlstate(const PGresult *result) { return pq.result_error_field(result, PG_DIAG_SQLSTATE); }
const char *cpq_result_error_message(const PGresult *result) { return pq.result_error_message(result); }
int cpq_ntuples(const PGresult *result) { return pq.ntuples(result); }
int cpq_nfields(const PGresult *result) { return pq.nfields(result); }
Oid cpq_ftype(const PGresult *result, int column) { return pq.ftype(result, column); }
char *cpq_getvalue(const PGresult *result, int row, int column) { return pq.getvalue(result, row, column); }
int cpq_getlength(const PGresult *result, int row, int column) { return pq.getlength(result, row, column); }
int cpq_getisnull(const PGresult *result, int row, int column) { return pq.getisnull(result, row, column); }
char *cpq_cmd_tuples(PGresult *result) { return pq.cmd_tuples(result); }
void cpq_clear(PGresult *result) { if (result) pq.clear(result); }

int cpq_socket(const PGconn *conn) { return pq.socket(conn); }
int cpq_consume_input(PGconn *conn) { return pq.consume_input(conn); }
PGnotify *cpq_notifies(PGconn *conn) { return pq.notifies(conn); }
void cpq_freemem(void *pointer) { pq.freemem(pointer); }
PGcancel *cpq_get_cancel(PGconn *conn) { return pq.get_cancel(conn); }
void cpq_free_cancel(PGcancel *cancel) { if (cancel) pq.free_cancel(cancel); }

int cpq_cancel(PGcancel *cancel) {
    char reason[256];
    return cancel ? pq.cancel(cancel, reason, sizeof reason) : 0;
}
