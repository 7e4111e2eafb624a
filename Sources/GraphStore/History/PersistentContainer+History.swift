#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading and pruning persistent history (Core Data's `NSPersistentHistoryChangeRequest`). These
/// work on any container; a store never opened with `tracksHistory` has an empty history.
extension PersistentContainer {
    /// The newest transaction's token (``HistoryToken/start`` when there is none).
    public func currentHistoryToken() throws -> HistoryToken {
        try historyReading(empty: .start) { storage in try HistoryReader(storage: storage).currentToken() }
    }

    /// The transactions committed after `token`, oldest first, in one snapshot of the store.
    ///
    /// - Parameters:
    ///   - author: only the transactions of this author.
    ///   - entity: only the changes of this entity (and the transactions that have some).
    ///   - limit: at most this many transactions; the result's token is then the last one's.
    /// - Throws: ``GraphStoreError/historyTokenExpired(_:)`` when history after `token` was deleted:
    ///   start again from a date or the current token.
    public func history(after token: HistoryToken, author: String? = nil, entity: String? = nil, limit: Int? = nil) throws -> PersistentHistory {
        try historyReading(empty: PersistentHistory(transactions: [], token: token)) { storage in
            try HistoryReader(storage: storage).history(after: token, author: author, entity: entity, limit: limit)
        }
    }

    /// The transactions committed after `date`, oldest first (Core Data's `fetchHistory(after: Date)`).
    public func history(after date: Date, author: String? = nil, entity: String? = nil, limit: Int? = nil) throws -> PersistentHistory {
        try historyReading(empty: PersistentHistory(transactions: [], token: .start)) { storage in
            try HistoryReader(storage: storage).history(after: date, author: author, entity: entity, limit: limit)
        }
    }

    /// Deletes the transactions before `token` (Core Data's `deleteHistory(before:)`). A reader
    /// whose token is older than a deleted transaction then gets ``GraphStoreError/historyTokenExpired(_:)``.
    public func deleteHistory(before token: HistoryToken) throws {
        try deleteHistory(HistoryTables.deleteBefore(token: true), .integer(token.value))
    }

    /// Deletes the transactions committed before `date`.
    public func deleteHistory(before date: Date) throws {
        try deleteHistory(HistoryTables.deleteBefore(token: false), .real(date.timeIntervalSince1970))
    }

    private func deleteHistory(_ statements: [String], _ bound: StoredValue) throws {
        try unrecordedStore.write(deferringForeignKeys: false) { writer in
            guard let storage = writer as? any HistoryStorage, try HistoryTrackingStore.tablesExist(storage) else { return }
            for sql in statements { try storage.historyExecute(sql, [bound]) }
        }
    }

    private func historyReading<T>(empty: T, _ body: (any HistoryStorage) throws -> T) throws -> T {
        try store.read { reader in
            guard let storage = reader as? any HistoryStorage, try HistoryTrackingStore.tablesExist(storage) else { return empty }
            return try body(storage)
        }
    }
}
