/// What an observation's history poll reads: has the store's history moved, and through which entities.
enum HistoryPolling {
    /// At most this many transactions are read to find their entities; past it, any counts.
    static let transactionLimit = 100

    /// The current history token, read in `reader`'s snapshot (``HistoryToken/start`` without history).
    static func token(_ reader: any StoreReader) throws -> HistoryToken {
        guard let storage = reader as? any HistoryStorage, try HistoryTrackingStore.tablesExist(storage) else { return .start }
        return try HistoryReader(storage: storage).currentToken()
    }

    /// Nil when no transaction was committed after `token`; else the newest token and the entities
    /// changed (nil when there were too many transactions to read).
    static func entitiesChanged(in container: PersistentContainer, after token: HistoryToken) throws -> (changed: Set<String>?, token: HistoryToken)? {
        guard try container.currentHistoryToken() > token else { return nil }
        let history = try container.history(after: token, limit: transactionLimit)
        if history.transactions.count >= transactionLimit { return (nil, history.token) }
        return (Set(history.transactions.flatMap { $0.changes.map(\.entity) }), history.token)
    }

    static func nanoseconds(_ interval: Duration) -> Int {
        let (seconds, attoseconds) = interval.components
        return max(1_000_000, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
