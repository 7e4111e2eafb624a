/// Turns a transaction's recorded entries into change rows: each object named by its unique key,
/// an update's changed columns (before and after for tracked ones and the key), a delete's
/// tombstone. A to-one is named by its destination's key, read from this transaction's rows, or
/// else from the store in one query per destination entity.
struct HistoryChangeRows {
    let entries: [HistoryRecorder.Entry]
    private var destinationKeys: [String: [Int64: StoredValue]] = [:]
    /// Per entity deleted here: the columns its tombstones keep, in name order, and their quoted names.
    private var tombstoneColumns: [ObjectIdentifier: (indices: [Int], names: [String])] = [:]

    /// (Entries whose kind is nil, inserted and deleted again, are skipped where they are read.)
    init(_ entries: [HistoryRecorder.Entry]) {
        self.entries = entries
    }

    /// The transaction's changes: the objects it wrote, in order, then those it only linked or
    /// unlinked (``HistoryLinks``).
    mutating func rows(reading reader: any StoreReader) throws -> [HistoryChangeRow] {
        try readDestinationKeys(reader)
        for entry in entries where entry.kind == .deleted && tombstoneColumns[ObjectIdentifier(entry.entity)] == nil {
            tombstoneColumns[ObjectIdentifier(entry.entity)] = Self.tombstoneColumns(of: entry.entity)
        }
        let links = HistoryLinks(entries)
        var rows: [HistoryChangeRow] = []
        rows.reserveCapacity(entries.count)
        var written = Set<HistoryLinks.Object>()
        for entry in entries where !entry.entity.isJoin {
            if !links.isEmpty { written.insert(HistoryLinks.Object(entity: ObjectIdentifier(entry.entity), rowID: entry.rowID)) }
            guard entry.kind != nil else { continue }
            if let row = row(entry, links: links.isEmpty ? [] : links.names(of: entry.entity, entry.rowID)) { rows.append(row) }
        }
        if !links.isEmpty { rows += try links.updatesOfObjectsOnlyLinked(besides: written, reading: reader) }
        return rows
    }

    /// `links`: the entry's to-manys whose links changed (listed after its changed columns).
    private func row(_ entry: HistoryRecorder.Entry, links: [String]) -> HistoryChangeRow? {
        let entity = entry.entity
        if entry.kind == .inserted {  // an insert keeps no fields
            return HistoryChangeRow(entity: entity.name, key: HistoryJSON.encode(entry.key!), kind: .inserted, fields: "{}")
        }
        var fields = HistoryFields()
        switch entry.kind {
        case .updated:
            guard let before = entry.before, let after = entry.after else { return nil }
            for column in before.indices where before[column] != after[column] {
                let name = entity.columns[column]
                fields.changed.append(name)
                if entity.isTracked(column: column) || column == entity.historyKeyColumn {
                    fields.values[name] = .init(before: named(before[column], entity, column), after: named(after[column], entity, column))
                }
            }
            fields.changed += links
            if fields.changed.isEmpty { return nil }
        case .deleted:
            guard let before = entry.before, let key = entry.key else { return nil }
            let columns = tombstoneColumns[ObjectIdentifier(entity)] ?? Self.tombstoneColumns(of: entity)
            let tombstone = HistoryJSON.tombstone(names: columns.names, values: columns.indices.map { named(before[$0], entity, $0) })
            return HistoryChangeRow(entity: entity.name, key: HistoryJSON.encode(key), kind: .deleted, fields: tombstone)
        case .inserted, nil:
            break
        }
        guard let key = entry.key else { return nil }
        return HistoryChangeRow(entity: entity.name, key: HistoryJSON.encode(key), kind: entry.kind!, fields: HistoryJSON.encode(fields))
    }

    private static func tombstoneColumns(of entity: EntityDescription) -> (indices: [Int], names: [String]) {
        let kept = entity.columns.indices.filter { entity.isPreservedOnDeletion(column: $0) || $0 == entity.historyKeyColumn }
            .sorted { entity.columns[$0] < entity.columns[$1] }
        return (kept, kept.map { HistoryJSON.quoted(entity.columns[$0]) })
    }

    /// A column's value as history keeps it: a foreign key as its destination's unique key.
    private func named(_ value: StoredValue, _ entity: EntityDescription, _ column: Int) -> StoredValue {
        guard let relationship = entity.toOne(atColumn: column), case .integer(let rowID) = value else { return value }
        return destinationKeys[relationship.destinationName]?[rowID] ?? value
    }

    private mutating func readDestinationKeys(_ reader: any StoreReader) throws {
        var wanted: [String: (entity: EntityDescription, rowIDs: Set<Int64>)] = [:]
        for entry in entries where entry.kind != nil && entry.kind != .inserted && !entry.entity.isJoin {
            let entity = entry.entity
            for column in entity.storedAttributes.count..<entity.columns.count {
                let keeps = entry.kind == .deleted ? entity.isPreservedOnDeletion(column: column) : entity.isTracked(column: column)
                guard keeps, let relationship = entity.toOne(atColumn: column) else { continue }
                for row in [entry.before, entry.after] {
                    guard case .integer(let rowID) = row?[column] else { continue }
                    let destination = relationship.destinationEntity
                    wanted[destination.name, default: (destination, [])].rowIDs.insert(rowID)
                }
            }
        }
        for (name, (destination, rowIDs)) in wanted {
            let keyColumn = destination.historyKeyColumn
            var keys: [Int64: StoredValue] = [:]
            for entry in entries where entry.kind != nil && entry.entity === destination && rowIDs.contains(entry.rowID) {
                if entry.kind == .inserted { keys[entry.rowID] = entry.key } else if let row = entry.before ?? entry.after {
                    keys[entry.rowID] = keyColumn.map { row[$0] } ?? .integer(entry.rowID)
                }
            }
            let unknown = rowIDs.filter { keys[$0] == nil }
            for row in try reader.rows(of: destination, rowIDs: Array(unknown)) {
                keys[row.rowID] = keyColumn.map { row.values[$0] } ?? .integer(row.rowID)
            }
            destinationKeys[name] = keys
        }
    }
}
