/// Persistent history's tables, GraphStore's own (the schema verifier and the migrator look at
/// the model's tables only, so these are left alone and a migrated store keeps its history).
///
/// - `graphstore_history_transaction`: one row per saved transaction, its token the primary key,
///   with its changes as one JSON array (``HistoryJSON``): a row per change doubled the rows an
///   import writes (1.3-1.5x the time of a 100k import); one per transaction costs little.
/// - `graphstore_history_state`: one row, the highest token deleted (a reader behind it has lost
///   history: ``GraphStoreError/historyTokenExpired(_:)``).
enum HistoryTables {
    static let transactions = "graphstore_history_transaction"
    static let state = "graphstore_history_state"

    static func create(_ dialect: SQLDialect) -> [String] {
        let token = dialect == .sqlite ? "INTEGER PRIMARY KEY AUTOINCREMENT" : "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
        let integer = dialect == .sqlite ? "INTEGER" : "BIGINT"
        let real = dialect == .sqlite ? "REAL" : "DOUBLE PRECISION"
        return [
            "CREATE TABLE IF NOT EXISTS \(transactions) (token \(token), at \(real) NOT NULL, author TEXT, context TEXT, changes TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS \(state) (id \(integer) PRIMARY KEY, pruned_through \(integer) NOT NULL)",
            dialect == .sqlite
                ? "INSERT OR IGNORE INTO \(state) (id, pruned_through) VALUES (1, 0)"
                : "INSERT INTO \(state) (id, pruned_through) VALUES (1, 0) ON CONFLICT DO NOTHING",
        ]
    }

    /// Whether the tables exist (a store never opened with history has none).
    static func exists(_ dialect: SQLDialect) -> String {
        dialect == .sqlite
            ? "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(state)'"
            : "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = '\(state)'"
    }

    /// PostgreSQL: tokens come from a sequence, which is not in commit order. Holding this lock from
    /// the token to the commit makes token order commit order: a reader that saw token N has seen
    /// every transaction below it (plain reads take no conflicting lock). It is the write's first
    /// statement, before its snapshot: taken just before the token instead, a writer waited with
    /// an old snapshot for another to commit, and concurrent saves failed serialization until
    /// their retries ran out (HistoryOrderTests). So writers with history take turns, as on SQLite.
    static let lockForToken = "LOCK TABLE \(transactions) IN EXCLUSIVE MODE"

    static let insertTransaction = "INSERT INTO \(transactions) (at, author, context, changes) VALUES (?, ?, ?, ?)"

    /// PostgreSQL: the channel a store's new history is announced on, one per schema (a database
    /// holds many stores), its name within PostgreSQL's 63 bytes whatever the schema's.
    private static let channel = "'graphstore_history_' || md5(current_schema()::text)"
    static let channelName = "SELECT " + channel
    /// PostgreSQL: announces the transaction just written, its token the payload. Sent in the
    /// transaction, so it is delivered at commit, and never for a rollback.
    static let notify = "SELECT pg_notify(\(channel), (SELECT max(token) FROM \(transactions))::text)"

    static let prunedThrough = "SELECT pruned_through FROM \(state) WHERE id = 1"
    static let setPrunedThrough = "UPDATE \(state) SET pruned_through = ? WHERE id = 1"

    /// Every transaction, as ``insertCopiedTransaction(_:)`` writes them into another store.
    static let allTransactions = "SELECT token, at, author, context, changes FROM \(transactions) ORDER BY token"

    /// A transaction under its token from another store (PostgreSQL must be told to take it).
    static func insertCopiedTransaction(_ dialect: SQLDialect) -> String {
        "INSERT INTO \(transactions) (token, at, author, context, changes)" + (dialect == .postgres ? " OVERRIDING SYSTEM VALUE" : "")
            + " VALUES (?, ?, ?, ?, ?)"
    }

    /// PostgreSQL: the next token after copied ones (SQLite's AUTOINCREMENT follows the highest).
    static let restartTokens = "SELECT setval(pg_get_serial_sequence('\(transactions)', 'token'), ?)"
    static let latestToken = "SELECT max(token) FROM \(transactions)"

    static func transactionsAfter(author: Bool, limit: Int?, byTime: Bool = false) -> String {
        "SELECT token, at, author, context, changes FROM \(transactions) WHERE \(byTime ? "at" : "token") > ?" + (author ? " AND author = ?" : "")
            + " ORDER BY token" + (limit.map { " LIMIT \($0)" } ?? "")
    }

    /// The highest token deleted, and the deletes: of the transactions before a token, or a time.
    static func deleteBefore(token: Bool) -> [String] {
        let condition = token ? "token < ?" : "at < ?"
        return [
            "UPDATE \(state) SET pruned_through = max_deleted FROM (SELECT max(token) AS max_deleted FROM \(transactions) WHERE \(condition)) AS d"
                + " WHERE id = 1 AND max_deleted > pruned_through",
            "DELETE FROM \(transactions) WHERE \(condition)",
        ]
    }
}
