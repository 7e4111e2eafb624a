/// Persistent history's tables, GraphStore's own (the schema verifier and the migrator look at
/// the model's tables only, so these are left alone and a migrated store keeps its history).
///
/// - `graphstore_history_transaction`: one row per saved transaction, its token the primary key.
/// - `graphstore_history_change`: its changes, keyed by (token, position): reading after a token
///   is a range of that key, and no other index costs a write.
/// - `graphstore_history_state`: one row, the highest token deleted (a reader behind it has lost
///   history: ``GraphStoreError/historyTokenExpired(_:)``).
enum HistoryTables {
    static let transactions = "graphstore_history_transaction"
    static let changes = "graphstore_history_change"
    static let state = "graphstore_history_state"

    static func create(_ dialect: SQLDialect) -> [String] {
        let token = dialect == .sqlite ? "INTEGER PRIMARY KEY AUTOINCREMENT" : "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
        let integer = dialect == .sqlite ? "INTEGER" : "BIGINT"
        let real = dialect == .sqlite ? "REAL" : "DOUBLE PRECISION"
        return [
            "CREATE TABLE IF NOT EXISTS \(transactions) (token \(token), at \(real) NOT NULL, author TEXT, context TEXT)",
            """
            CREATE TABLE IF NOT EXISTS \(changes) (token \(integer) NOT NULL, position \(integer) NOT NULL, entity TEXT NOT NULL, \
            key TEXT NOT NULL, kind \(integer) NOT NULL, fields TEXT NOT NULL, PRIMARY KEY (token, position))
            """,
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

    static let insertTransaction = "INSERT INTO \(transactions) (at, author, context) VALUES (?, ?, ?) RETURNING token"

    static let insertChange = "INSERT INTO \(changes) (token, position, entity, key, kind, fields) VALUES (?, ?, ?, ?, ?, ?)"

    static let insertChanges = """
        INSERT INTO \(changes) (token, position, entity, key, kind, fields) \
        SELECT ?, * FROM unnest(?::bigint[], ?::text[], ?::text[], ?::bigint[], ?::text[])
        """

    static let prunedThrough = "SELECT pruned_through FROM \(state) WHERE id = 1"
    static let latestToken = "SELECT max(token) FROM \(transactions)"

    static func transactionsAfter(author: Bool, limit: Int?) -> String {
        "SELECT token, at, author, context FROM \(transactions) WHERE token > ?" + (author ? " AND author = ?" : "")
            + " ORDER BY token" + (limit.map { " LIMIT \($0)" } ?? "")
    }

    static func changesOf(entity: Bool) -> String {
        "SELECT token, entity, key, kind, fields FROM \(changes) WHERE token >= ? AND token <= ?" + (entity ? " AND entity = ?" : "")
            + " ORDER BY token, position"
    }

    /// The highest token deleted, and the deletes: of the transactions before a token, or a time.
    static func deleteBefore(token: Bool) -> [String] {
        let condition = token ? "token < ?" : "at < ?"
        return [
            "UPDATE \(state) SET pruned_through = max_deleted FROM (SELECT max(token) AS max_deleted FROM \(transactions) WHERE \(condition)) AS d"
                + " WHERE id = 1 AND max_deleted > pruned_through",
            "DELETE FROM \(changes) WHERE token IN (SELECT token FROM \(transactions) WHERE \(condition))",
            "DELETE FROM \(transactions) WHERE \(condition)",
        ]
    }
}
