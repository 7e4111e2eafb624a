/// A ``StoreWriter`` that forwards every call and notes the entities whose rows it inserts,
/// updates or deletes (for ``ObservedStore``).
final class TouchRecordingWriter: StoreWriter {
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

    // MARK: - Reading: the store's

    func fetch(_ query: StoreQuery) throws -> [StoredRow] { try base.fetch(query) }
    func fetchColumns(_ query: StoreQuery) throws -> StoredColumns { try base.fetchColumns(query) }
    func lookUp(_ entity: EntityDescription, keyColumn: String, keys: [StoredValue], columns: [String]) throws -> KeyedRows {
        try base.lookUp(entity, keyColumn: keyColumn, keys: keys, columns: columns)
    }
    func count(_ query: StoreQuery) throws -> Int { try base.count(query) }
    func groupCounts(entity: String, column: String) throws -> [Int64: Int] { try base.groupCounts(entity: entity, column: column) }
    func groupCounts(entity: String, column: String, owners: [Int64]) throws -> [Int64: Int] {
        try base.groupCounts(entity: entity, column: column, owners: owners)
    }
    func ownersWithoutMembers(owner: String, candidates: [Int64], member: String, column: String) throws -> [Int64] {
        try base.ownersWithoutMembers(owner: owner, candidates: candidates, member: member, column: column)
    }
    func rows(of entity: EntityDescription, rowIDs: [Int64]) throws -> [StoredRow] { try base.rows(of: entity, rowIDs: rowIDs) }
    func rows(of entity: EntityDescription, columns: [String], matching keys: [[StoredValue]]) throws -> [StoredRow] {
        try base.rows(of: entity, columns: columns, matching: keys)
    }
}
