#ifndef PHOTOSYNC_CLIBPQ_H
#define PHOTOSYNC_CLIBPQ_H

#include <postgresql/libpq-fe.h>
#include <stddef.h>

// libpq, loaded on first use rather than at start-up (as CCurl loads libcurl).
//
// Linking libpq would make every process map it and its dependencies (TLS, Kerberos, LDAP), a
// few milliseconds that a SQLite catalog never needs. Only a PostgreSQL store loads it. The
// names mirror libpq's, prefixed `cpq_`.

/// Loads libpq.so.5, once per process (thread-safe). Returns 0 on success; otherwise copies the
/// reason into `error` (NUL-terminated) and returns -1, every time.
int cpq_load(char *error, size_t capacity);

// The functions below may be called only after cpq_load succeeded.
PGconn *cpq_connectdb(const char *conninfo);
ConnStatusType cpq_status(const PGconn *conn);
const char *cpq_error_message(const PGconn *conn);
void cpq_finish(PGconn *conn);
PGTransactionStatusType cpq_transaction_status(const PGconn *conn);
/// Notices (e.g. "relation already exists, skipping") are dropped instead of printed on stderr.
void cpq_silence_notices(PGconn *conn);

PGresult *cpq_exec(PGconn *conn, const char *command);
PGresult *cpq_prepare(PGconn *conn, const char *name, const char *query, int count, const Oid *types);
PGresult *cpq_exec_prepared(PGconn *conn, const char *name, int count, const char *const *values,
                            const int *lengths, const int *formats, int resultFormat);
PGresult *cpq_exec_params(PGconn *conn, const char *command, int count, const Oid *types,
                          const char *const *values, const int *lengths, const int *formats, int resultFormat);

ExecStatusType cpq_result_status(const PGresult *result);
/// The SQLSTATE of a failed command ("23505"), or NULL.
const char *cpq_sqlstate(const PGresult *result);
const char *cpq_result_error_message(const PGresult *result);
int cpq_ntuples(const PGresult *result);
int cpq_nfields(const PGresult *result);
/// The type of a result column (an Oid: 20 is int8, 25 text).
Oid cpq_ftype(const PGresult *result, int column);
char *cpq_getvalue(const PGresult *result, int row, int column);
int cpq_getlength(const PGresult *result, int row, int column);
int cpq_getisnull(const PGresult *result, int row, int column);
char *cpq_cmd_tuples(PGresult *result);
void cpq_clear(PGresult *result);
/// The handle that cancels `conn`'s commands (PQgetCancel), made once on the connection's thread.
PGcancel *cpq_get_cancel(PGconn *conn);
void cpq_free_cancel(PGcancel *cancel);
/// Asks the server to cancel the command running now (PQcancel): callable from another thread while
/// the connection waits for that command. Returns 1 when the request was sent.
int cpq_cancel(PGcancel *cancel);

// LISTEN/NOTIFY: the connection's socket (to poll), reading what arrived, and each notification.
int cpq_socket(const PGconn *conn);
int cpq_consume_input(PGconn *conn);
PGnotify *cpq_notifies(PGconn *conn);
void cpq_freemem(void *pointer);

#endif
