#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The store of a container with persistent history: it wraps the real store, hands every write a
/// ``HistoryWriter``, and writes the transaction's history at the end of that same transaction.
/// A write that throws (a failed save, a dry run, a preview) is rolled back with its history.
final class HistoryTrackingStore: PersistentStore {
    let base: any PersistentStore
    /// The author of transactions whose save names none.
    let defaultAuthor: String?

    init(_ base: any PersistentStore, defaultAuthor: String?, readOnly: Bool) throws {
        self.base = base
        self.defaultAuthor = defaultAuthor
        if !readOnly { try createTables() }
    }

    /// Wraps `base`, creating the history tables if needed; any failure is a ``GraphStoreError``.
    static func opening(_ base: any PersistentStore, defaultAuthor: String?, readOnly: Bool) throws(GraphStoreError) -> HistoryTrackingStore {
        do {
            return try HistoryTrackingStore(base, defaultAuthor: defaultAuthor, readOnly: readOnly)
        } catch let error as GraphStoreError {
            throw error
        } catch let failure as SerializationFailure {
            throw .writeFailed(failure.failure)
        } catch {
            throw .writeFailed(StoreFailure(kind: .other, message: "\(error)"))
        }
    }

    var model: ManagedObjectModel { base.model }

    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { try base.read(body) }

    func write<T>(deferringForeignKeys: Bool, _ body: (any StoreWriter) throws -> T) throws -> T {
        try base.write(deferringForeignKeys: deferringForeignKeys) { writer in
            if let storage = writer as? any HistoryStorage, storage.historyDialect == .postgres {
                try storage.historyExecute(HistoryTables.lockForToken, [])
            }
            let recording = HistoryWriter(writer, model: base.model)
            let result = try body(recording)
            try commitHistory(of: recording)
            return result
        }
    }

    /// Writes the recorded changes, if any, as one transaction under a new token.
    private func commitHistory(of writer: HistoryWriter) throws {
        guard !writer.recorder.isEmpty, let storage = writer.base as? any HistoryStorage else { return }
        var changes = HistoryChangeRows(writer.recorder.entries)
        let rows = try changes.rows(reading: writer.base)
        guard !rows.isEmpty else { return }
        let author = writer.author ?? defaultAuthor
        try storage.historyExecute(HistoryTables.insertTransaction, [
            .real(Date().timeIntervalSince1970), author.map(StoredValue.text) ?? .null, writer.contextName.map(StoredValue.text) ?? .null,
            .text(HistoryJSON.encode(rows)),
        ])
        if storage.historyDialect == .postgres { try storage.historyExecute(HistoryTables.notify, []) }
    }

    /// Creates the history tables once (under the schema lock on PostgreSQL, where processes may
    /// open a store at once).
    private func createTables() throws {
        for attempt in 1... {
            do {
                return try createTablesOnce()
            } catch is SerializationFailure where attempt < 5 {
                // Another process created them since this transaction's snapshot: look again.
            }
        }
    }

    private func createTablesOnce() throws {
        try base.write(deferringForeignKeys: false) { writer in
            guard let storage = writer as? any HistoryStorage else { return }
            if try Self.tablesExist(storage) { return }
            if storage.historyDialect == .postgres { try storage.historyExecute("SELECT pg_advisory_xact_lock(\(PostgresStore.schemaLock))", []) }
            for sql in HistoryTables.create(storage.historyDialect) { try storage.historyExecute(sql, []) }
        }
    }

    static func tablesExist(_ storage: any HistoryStorage) throws -> Bool {
        try storage.historyRows(HistoryTables.exists(storage.historyDialect), []).first?.first != .integer(0)
    }
}
