/// A ``StoreWriter`` that forwards every call and notes the entities whose rows it inserts,
/// updates or deletes (for ``ObservedStore``).
final class TouchRecordingWriter: StoreWriter, ForwardingReader {
    let base: any StoreWriter
    private(set) var touched = Set<String>()
    /// The entity last noted: consecutive writes of one entity cost no set lookup.
    private var last: EntityDescription?

    init(_ base: any StoreWriter) { self.base = base }

    private func note(_ entity: EntityDescription) {
        guard last !== entity else { return }
        last = entity
        touched.insert(entity.name)
    }

    func insert(into entity: EntityDescription, values: [StoredValue]) throws -> Int64 {
        note(entity)
        return try base.insert(into: entity, values: values)
    }

    @discardableResult
    func update(_ entity: EntityDescription, rowID: Int64, columns: [String], values: [StoredValue]) throws -> Bool {
        note(entity)
        return try base.update(entity, rowID: rowID, columns: columns, values: values)
    }

    func delete(from entity: EntityDescription, rowID: Int64) throws {
        note(entity)
        try base.delete(from: entity, rowID: rowID)
    }

    func savepoint<T>(_ body: () throws -> T) throws -> T { try base.savepoint(body) }
    func writingInBatch<T>(_ entity: EntityDescription, inserts: Int, _ body: () throws -> T) throws -> T {
        try base.writingInBatch(entity, inserts: inserts, body)
    }
    var batchFlushSize: Int? { base.batchFlushSize }
    func describeTransaction(author: String?, context: String?) { base.describeTransaction(author: author, context: context) }
    func willDelete(from entity: EntityDescription, rowIDs: [Int64], known: [StoredRow]) throws {
        try base.willDelete(from: entity, rowIDs: rowIDs, known: known)
    }
    func willUpdate(_ entity: EntityDescription, rowIDs: [Int64]) throws { try base.willUpdate(entity, rowIDs: rowIDs) }
}
