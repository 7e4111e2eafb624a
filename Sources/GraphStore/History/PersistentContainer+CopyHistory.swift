#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A store's persistent history as ``PersistentContainer/copyContents(into:author:convertingText:)``
/// carries it: the transactions with their tokens, and the highest token deleted. A copied store
/// keeps its history, so a reader's token stays good after a migration.
struct CopiedHistory {
    var transactions: [[StoredValue]]
    var prunedThrough: Int64

    /// The history `reader` sees, or nil when its store keeps none.
    static func read(_ reader: any StoreReader) throws -> CopiedHistory? {
        guard let storage = reader as? any HistoryStorage, try HistoryTrackingStore.tablesExist(storage) else { return nil }
        let rows = try storage.historyRows(HistoryTables.allTransactions, [])
        return CopiedHistory(transactions: rows, prunedThrough: try HistoryReader(storage: storage).prunedThrough())
    }

    /// Writes `history` (if any) into the empty history of `writer`'s store under the same tokens,
    /// then a transaction of `author` with no changes: the copy itself, whose rows are not listed.
    /// - Throws: `incompatibleStore` when the destination has history already.
    static func write(_ history: CopiedHistory?, into writer: any StoreWriter, author: String?) throws {
        guard let storage = writer as? any HistoryStorage, try HistoryTrackingStore.tablesExist(storage) else { return }
        if storage.historyDialect == .postgres { try storage.historyExecute(HistoryTables.lockForToken, []) }
        guard try HistoryReader(storage: storage).currentToken() == .start else {
            throw GraphStoreError.incompatibleStore("the destination has change history already")
        }
        if let history {
            for row in history.transactions { try storage.historyExecute(HistoryTables.insertCopiedTransaction(storage.historyDialect), row) }
            try storage.historyExecute(HistoryTables.setPrunedThrough, [.integer(history.prunedThrough)])
            if storage.historyDialect == .postgres, let last = history.transactions.last?.first {
                try storage.historyExecute(HistoryTables.restartTokens, [last])
            }
        }
        try storage.historyExecute(HistoryTables.insertTransaction, [
            .real(Date().timeIntervalSince1970), author.map(StoredValue.text) ?? .null, .null, .text("[]"),
        ])
    }
}

extension PersistentContainer {
    /// The store beneath observation and history: writes through it record no history.
    var unrecordedStore: any PersistentStore {
        let tracked = (store as? ObservedStore)?.base ?? store
        return (tracked as? HistoryTrackingStore)?.base ?? tracked
    }
}
