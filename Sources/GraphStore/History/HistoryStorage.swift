/// What persistent history needs of a store connection beyond rows of the model: statements on
/// its own tables (``HistoryTables``), which both stores spell alike.
protocol HistoryStorage {
    var historyDialect: SQLDialect { get }
    /// The rows of a query, each value in column order.
    func historyRows(_ sql: String, _ values: [StoredValue]) throws -> [[StoredValue]]
    func historyExecute(_ sql: String, _ values: [StoredValue]) throws
}

/// One change as written: `key` and `fields` are JSON (see ``HistoryJSON``).
struct HistoryChangeRow {
    let entity: String
    let key: String
    let kind: HistoryChange.Kind
    let fields: String
}
