internal import CLibPQ
#if canImport(Glibc)
import Glibc
#endif

/// One libpq connection: statements prepared once and run with bound values (text format).
///
/// Not thread-safe: a ``PostgresStore`` hands it to one transaction at a time.
final class PostgresConnection: @unchecked Sendable {
    let handle: OpaquePointer
    /// Cancels the running command from another thread (``cancel()``).
    private let canceller: OpaquePointer?
    /// While the connection serves a read: the switch that ends it (checked before each command).
    var interruption: ReadInterruption?
    /// Statement text and parameter types → the name it was prepared under.
    private var prepared: [String: String] = [:]
    /// Statements run once, unprepared: one is prepared when it runs again. A command that runs
    /// each statement once (a `list`, a schema check) then pays one round trip each, not two.
    private var ranOnce: Set<String> = []

    /// Connects with libpq: `conninfo` is a `postgres://` URL or `key=value` pairs, completed by
    /// libpq's environment (`PGHOST`, `PGUSER`, `PGPASSWORD`, `PGSSLMODE`, ...) and `~/.pgpass`.
    /// A server that never answers fails the connection after ``PostgresSQL/defaultConnectTimeout``.
    init(conninfo: String) throws(PostgresError) {
        var reason = [CChar](repeating: 0, count: 256)
        guard cpq_load(&reason, reason.count) == 0 else {
            throw PostgresError(sqlState: nil, message: String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let handle = cpq_connectdb(PostgresSQL.withConnectTimeout(conninfo)) else { throw PostgresError(sqlState: nil, message: "out of memory") }
        guard cpq_status(handle) == CONNECTION_OK else {
            let message = String(cString: cpq_error_message(handle))
            cpq_finish(handle)
            throw PostgresError(sqlState: nil, message: message)
        }
        cpq_silence_notices(handle)
        self.handle = handle
        canceller = cpq_get_cancel(handle)
    }

    deinit {
        cpq_free_cancel(canceller)
        cpq_finish(handle)
    }

    /// Asks the server to stop the command running now, if any: it then fails with SQLSTATE 57014.
    func cancel() {
        _ = cpq_cancel(canceller)
    }

    /// Whether the connection to the server still stands (libpq notices a closed one when a command fails).
    var isConnected: Bool { cpq_status(handle) == CONNECTION_OK }

    /// Whether the connection can take another transaction (not broken, not inside one).
    var isReusable: Bool { isConnected && cpq_transaction_status(handle) == PQTRANS_IDLE }

    /// Runs a statement without values (transaction control, DDL).
    @discardableResult
    func execute(_ sql: String) throws(PostgresError) -> PostgresResult {
        try checkInterruption()
        return try check(cpq_exec(handle, sql))
    }

    /// Runs `sql` (SQLite's spelling: `?` placeholders) with `values` bound: unprepared the first
    /// time, prepared once it runs again.
    @discardableResult
    func query(_ sql: String, _ values: [StoredValue]) throws(PostgresError) -> PostgresResult {
        if values.contains(where: \.holdsNUL) {
            throw PostgresError(sqlState: "22021", message: "PostgreSQL text cannot hold the NUL character (U+0000)")
        }
        try checkInterruption()
        let types = values.map(\.postgresType)
        let key = sql + "\u{0}" + types.map(String.init).joined(separator: ",")
        let texts = values.map { $0.postgresText.map { strdup($0) } ?? nil }
        defer { for text in texts { free(text) } }
        let pointers = texts.map { UnsafePointer($0) }
        if prepared[key] == nil, ranOnce.insert(key).inserted {
            return try check(cpq_exec_params(handle, PostgresSQL.numberedPlaceholders(sql), Int32(values.count), types, pointers, nil, nil, 0))
        }
        let name = try prepare(key, sql, types)
        return try check(cpq_exec_prepared(handle, name, Int32(values.count), pointers, nil, nil, 0))
    }

    /// A read whose interruption was thrown sends nothing more (a cancel reaches only a running command).
    private func checkInterruption() throws(PostgresError) {
        if interruption?.isRequested == true { throw PostgresError(sqlState: "57014", message: "canceling statement due to interrupt") }
    }

    private func prepare(_ key: String, _ sql: String, _ types: [Oid]) throws(PostgresError) -> String {
        if let name = prepared[key] { return name }
        let name = "gs\(prepared.count)"
        _ = try check(cpq_prepare(handle, name, PostgresSQL.numberedPlaceholders(sql), Int32(types.count), types))
        prepared[key] = name
        return name
    }

    private func check(_ result: OpaquePointer?) throws(PostgresError) -> PostgresResult {
        guard let result else { throw PostgresError(sqlState: nil, message: String(cString: cpq_error_message(handle))) }
        let status = cpq_result_status(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let error = PostgresError(sqlState: cpq_sqlstate(result).map { String(cString: $0) },
                                      message: String(cString: cpq_result_error_message(result)))
            cpq_clear(result)
            throw error
        }
        return PostgresResult(result)
    }
}

/// A failed libpq call: PostgreSQL's SQLSTATE (nil when the connection itself failed) and message.
struct PostgresError: Error {
    let sqlState: String?
    let message: String

    var failure: StoreFailure {
        StoreFailure(kind: kind, message: primaryMessage, sqlState: sqlState)
    }

    /// The message's first line without its severity ("ERROR:  "): the rest (DETAIL, HINT) may
    /// quote row values.
    var primaryMessage: String {
        let line = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? message
        for severity in ["ERROR:  ", "FATAL:  ", "PANIC:  "] where line.hasPrefix(severity) { return String(line.dropFirst(severity.count)) }
        return line
    }
}
