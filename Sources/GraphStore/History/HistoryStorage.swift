/// What persistent history needs of a store connection beyond rows of the model: statements on
/// its own tables (``HistoryTables``), which both stores spell alike but insert in bulk differently.
protocol HistoryStorage {
    var historyDialect: SQLDialect { get }
    /// The rows of a query, each value in column order.
    func historyRows(_ sql: String, _ values: [StoredValue]) throws -> [[StoredValue]]
    func historyExecute(_ sql: String, _ values: [StoredValue]) throws
    /// Writes one transaction's change rows: a statement per row on SQLite, arrays on PostgreSQL.
    func insertHistoryChanges(_ rows: [HistoryChangeRow], token: Int64) throws
}

/// One change as stored: `key` and `fields` are JSON (see ``HistoryJSON``).
struct HistoryChangeRow {
    let entity: String
    let key: String
    let kind: HistoryChange.Kind
    let fields: String
}
