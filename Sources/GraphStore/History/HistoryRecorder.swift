/// The net change of each row one transaction wrote, coalesced as the writes come: an insert then
/// updates is an insert; updates are one update (first before, last after); an insert then a
/// delete is nothing; an update then a delete is a delete of the row as it was.
struct HistoryRecorder {
    struct Entry {
        let entity: EntityDescription
        let rowID: Int64
        /// Nil: the row was inserted and deleted again (or turned out not to exist).
        var kind: HistoryChange.Kind?
        /// The row before the transaction, for updates and deletes; nil until read (see ``HistoryWriter``).
        var before: [StoredValue]?
        /// An inserted row's unique key (``EntityDescription/historyKeyColumn``), later updates
        /// applied; nil for other rows and entities without one. An insert records nothing else:
        /// keeping whole rows until the commit cost a first import more than the rest of history.
        var insertedKey: StoredValue?
        /// An updated row's columns set since (column index → value).
        var patch: [Int: StoredValue] = [:]
        /// A join row's values when it was inserted (a join row is a link, never a change itself).
        var insertedLink: [StoredValue]?

        /// A join row's values: as inserted, or as it was before its delete.
        var link: [StoredValue]? { kind == .inserted ? insertedLink : kind == .deleted ? before : nil }

        /// The object's name in history: its unique key after the transaction (before, for a
        /// delete), else its row id. Nil for an update or delete whose row is not read yet.
        var key: StoredValue? {
            if kind == .inserted { return insertedKey ?? .integer(rowID) }
            guard let column = entity.historyKeyColumn else { return .integer(rowID) }
            return (kind == .deleted ? before : after)?[column]
        }

        /// An updated row after the transaction (nil for inserts, deletes, or before its row is read).
        var after: [StoredValue]? {
            guard kind == .updated, var row = before else { return nil }
            for (index, value) in patch { row[index] = value }
            return row
        }
    }

    private struct RowKey: Hashable {
        let entity: ObjectIdentifier
        let rowID: Int64
        init(_ entity: EntityDescription, _ rowID: Int64) { (self.entity, self.rowID) = (ObjectIdentifier(entity), rowID) }
    }

    private(set) var entries: [Entry] = []
    private var positions: [RowKey: Int] = [:]
    /// The last entity's ``EntityDescription/historyKeyColumn`` (a search by name): writes come
    /// in runs of one entity.
    private var lastKeyColumn: (entity: ObjectIdentifier, column: Int?)?

    private mutating func keyColumn(_ entity: EntityDescription) -> Int? {
        if let last = lastKeyColumn, last.entity == ObjectIdentifier(entity) { return last.column }
        let column = entity.historyKeyColumn
        lastKeyColumn = (ObjectIdentifier(entity), column)
        return column
    }

    var isEmpty: Bool { !entries.contains { $0.kind != nil } }

    /// Whether `rowID` was inserted in this transaction (and not deleted since).
    func isInserted(_ entity: EntityDescription, _ rowID: Int64) -> Bool {
        positions[RowKey(entity, rowID)].map { entries[$0].kind == .inserted } ?? false
    }

    /// Whether `rowID` was written already in this transaction (its before-values are known).
    func knows(_ entity: EntityDescription, _ rowID: Int64) -> Bool { positions[RowKey(entity, rowID)] != nil }

    mutating func insert(_ entity: EntityDescription, _ rowID: Int64, _ values: [StoredValue]) {
        positions[RowKey(entity, rowID)] = entries.count
        entries.append(Entry(entity: entity, rowID: rowID, kind: .inserted, insertedKey: keyColumn(entity).map { values[$0] },
                             insertedLink: entity.isJoin ? values : nil))
    }

    /// Records an update; returns the new entry's position when it is the row's first write.
    @discardableResult
    mutating func update(_ entity: EntityDescription, _ rowID: Int64, columns: [String], values: [StoredValue], before: [StoredValue]?) -> Int? {
        let indices = columns.map { entity.columns.firstIndex(of: $0)! }
        let key = RowKey(entity, rowID)
        guard let position = positions[key] else {
            positions[key] = entries.count
            entries.append(Entry(entity: entity, rowID: rowID, kind: .updated, before: before, patch: Dictionary(zip(indices, values)) { $1 }))
            return entries.count - 1
        }
        let inserted = entries[position].kind == .inserted, keyColumn = keyColumn(entity)
        for (index, value) in zip(indices, values) {
            if !inserted { entries[position].patch[index] = value } else if index == keyColumn { entries[position].insertedKey = value }
        }
        return nil
    }

    /// Records a delete; returns the new entry's position when it is the row's first write.
    @discardableResult
    mutating func delete(_ entity: EntityDescription, _ rowID: Int64, before: [StoredValue]?) -> Int? {
        let key = RowKey(entity, rowID)
        guard let position = positions[key] else {
            positions[key] = entries.count
            entries.append(Entry(entity: entity, rowID: rowID, kind: .deleted, before: before))
            return entries.count - 1
        }
        if entries[position].kind == .inserted {
            entries[position].kind = nil
            positions[key] = nil  // a new row may take the id again (SQLite reuses the highest)
        } else {
            entries[position].kind = .deleted
            entries[position].patch = [:]
        }
        return nil
    }

    /// Sets the before-values read for the entry at `position`; nil drops it (no such row).
    mutating func setBefore(_ row: [StoredValue]?, at position: Int) {
        guard let row else {
            entries[position].kind = nil
            positions[RowKey(entries[position].entity, entries[position].rowID)] = nil
            return
        }
        entries[position].before = row
    }
}
