/// A ``StoreWriter`` that forwards every call to the store's and records each row it inserts,
/// updates or deletes in a ``HistoryRecorder``: every save path (context saves, import sessions,
/// delete rules, emptied owners, key changes, row updates) is recorded by this one place.
///
/// An update or delete needs the row as it was. SQLite writes at once, so it is read just before
/// (by rowid). Inside a PostgreSQL batch the writes are kept and sent together: the rows are read
/// in one query each time before the batch is sent (at its end, or when it fills up).
final class HistoryWriter: StoreWriter, ForwardingReader {
    let base: any StoreWriter
    let model: ManagedObjectModel
    var recorder = HistoryRecorder()
    private(set) var author: String?
    private(set) var contextName: String?
    /// The outermost batch's entity, whose writes the store keeps until it sends them.
    private var batchEntity: EntityDescription?
    private var batchedWrites = 0
    /// Entries whose before-values are still to be read, before the batch is sent.
    private var unread: [Int] = []
    /// Each join table's ``EntityDescription/joinSides``, looked up once.
    private var joinSides: [ObjectIdentifier: [(entity: EntityDescription, relationship: String)?]] = [:]
    /// Rows read ahead of their deletes (``willDelete(from:rowIDs:known:)``), by entity and row id:
    /// good until the row's first write, which this writer records.
    var readAhead: [ObjectIdentifier: [Int64: [StoredValue]]] = [:]
    /// The rows pointing at rows about to be deleted, by "member.relationship" and the row they
    /// point at: good until the next insert or update, which could add one.
    var referencesReadAhead: [String: [Int64: [StoredRow]]] = [:]
    /// ``ManagedObjectModel/referencing(_:)`` per entity, worked out once, not once per row deleted.
    var referencingCache: [ObjectIdentifier: [(EntityDescription, RelationshipDescription, DeleteRule)]] = [:]

    init(_ base: any StoreWriter, model: ManagedObjectModel) { (self.base, self.model) = (base, model) }

    func describeTransaction(author: String?, context: String?) {
        self.author = author
        contextName = context
    }

    var batchFlushSize: Int? { base.batchFlushSize }

    func insert(into entity: EntityDescription, values: [StoredValue]) throws -> Int64 {
        try beforeBatchedWrite(entity)
        if !referencesReadAhead.isEmpty { referencesReadAhead = [:] }
        let rowID = try base.insert(into: entity, values: values)
        if isRecorded(entity) && !(entity.isJoin && linksOnlyNewObjects(entity, values)) { recorder.insert(entity, rowID, values) }
        return rowID
    }

    @discardableResult
    func update(_ entity: EntityDescription, rowID: Int64, columns: [String], values: [StoredValue]) throws -> Bool {
        try update(entity, rowID: rowID, columns: columns, values: values, knownRow: nil)
    }

    /// `knownRow`: the row as it is, read by the caller in this transaction (no read then).
    func update(_ entity: EntityDescription, rowID: Int64, columns: [String], values: [StoredValue], knownRow: [StoredValue]?) throws -> Bool {
        if !referencesReadAhead.isEmpty { referencesReadAhead = [:] }
        guard !columns.isEmpty, entity.keepsHistory else { return try base.update(entity, rowID: rowID, columns: columns, values: values) }
        let knownRow = knownRow ?? readAhead[ObjectIdentifier(entity)]?.removeValue(forKey: rowID)
        if recorder.knows(entity, rowID) {
            recorder.update(entity, rowID, columns: columns, values: values, before: nil)
        } else if let knownRow {
            recorder.update(entity, rowID, columns: columns, values: values, before: knownRow)
        } else if isDeferred(entity) {
            unread += recorder.update(entity, rowID, columns: columns, values: values, before: nil).map { [$0] } ?? []
        } else if let before = try base.rows(of: entity, rowIDs: [rowID]).first?.values {
            recorder.update(entity, rowID, columns: columns, values: values, before: before)
        }
        try beforeBatchedWrite(entity)
        return try base.update(entity, rowID: rowID, columns: columns, values: values)
    }

    func delete(from entity: EntityDescription, rowID: Int64) throws {
        if !entity.isJoin { try recordForeignKeyActions(deleting: entity, rowID: rowID) }
        if !isRecorded(entity) {
        } else if recorder.knows(entity, rowID) {
            recorder.delete(entity, rowID, before: nil)
        } else if let before = readAhead[ObjectIdentifier(entity)]?.removeValue(forKey: rowID) {
            recorder.delete(entity, rowID, before: before)
        } else if isDeferred(entity) {
            unread += recorder.delete(entity, rowID, before: nil).map { [$0] } ?? []
        } else if let before = try base.rows(of: entity, rowIDs: [rowID]).first?.values {
            recorder.delete(entity, rowID, before: before)
        }
        try beforeBatchedWrite(entity)
        try base.delete(from: entity, rowID: rowID)
    }

    /// A savepoint that throws drops what was recorded in it, as the store drops its writes.
    func savepoint<T>(_ body: () throws -> T) throws -> T {
        let (recorded, pending) = (recorder, unread)
        do {
            return try base.savepoint(body)
        } catch {
            (recorder, unread) = (recorded, pending)
            (readAhead, referencesReadAhead) = ([:], [:])  // the rows are back as they were: read them again
            throw error
        }
    }

    func writingInBatch<T>(_ entity: EntityDescription, inserts: Int, _ body: () throws -> T) throws -> T {
        guard batchEntity == nil, batchFlushSize != nil else { return try base.writingInBatch(entity, inserts: inserts, body) }
        (batchEntity, batchedWrites) = (entity, 0)
        defer { batchEntity = nil }
        return try base.writingInBatch(entity, inserts: inserts) {
            let result = try body()
            try readUnread()
            return result
        }
    }

    /// Whether history records the entity's writes: its own, or a join table's whose sides keep
    /// history (its sides looked up once).
    func isRecorded(_ entity: EntityDescription) -> Bool {
        entity.isJoin ? sides(of: entity).contains { $0 != nil } : entity.keepsHistory
    }

    private func sides(of join: EntityDescription) -> [(entity: EntityDescription, relationship: String)?] {
        if let known = joinSides[ObjectIdentifier(join)] { return known }
        let sides = join.joinSides
        joinSides[ObjectIdentifier(join)] = sides
        return sides
    }

    /// Whether a new join row links only objects inserted in this transaction, whose inserts say
    /// it all: not recorded, it costs a first import nothing.
    private func linksOnlyNewObjects(_ join: EntityDescription, _ values: [StoredValue]) -> Bool {
        zip(sides(of: join), values).allSatisfy { side, value in
            guard let side, case .integer(let rowID) = value else { return true }
            return recorder.isInserted(side.entity, rowID)
        }
    }

    /// Whether a write of `entity` is kept by the store until its batch is sent.
    func isDeferred(_ entity: EntityDescription) -> Bool { batchEntity === entity }

    /// Counts a write the batch keeps; the one that fills it makes the store send it, so the rows
    /// it changes are read first.
    private func beforeBatchedWrite(_ entity: EntityDescription) throws {
        guard isDeferred(entity), let size = batchFlushSize else { return }
        batchedWrites += 1
        guard batchedWrites >= size else { return }
        batchedWrites = 0
        try readUnread()
    }

    private func readUnread() throws {
        guard !unread.isEmpty else { return }
        var byEntity: [ObjectIdentifier: (entity: EntityDescription, positions: [Int64: Int])] = [:]
        for position in unread {
            let entry = recorder.entries[position]
            byEntity[ObjectIdentifier(entry.entity), default: (entry.entity, [:])].positions[entry.rowID] = position
        }
        unread = []
        for (entity, positions) in byEntity.values {
            var found: [Int64: [StoredValue]] = [:]
            for row in try base.rows(of: entity, rowIDs: Array(positions.keys)) { found[row.rowID] = row.values }
            for (rowID, position) in positions { recorder.setBefore(found[rowID], at: position) }
        }
    }
}
