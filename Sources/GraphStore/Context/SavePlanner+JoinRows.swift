/// Many-to-many pairs in a save: join rows written and deleted with the store's ordinary row
/// operations, one lookup per join table. The pairs themselves are not compared with what the
/// context read (Core Data's optimistic locking ignores to-many relationships too): a link makes
/// its row exist, an unlink makes it not exist, whatever another connection did meanwhile. Objects
/// whose pairs changed are updated objects, so their own rows are still checked.
extension SavePlanner {
    /// The join rows of every deleted object go with it (whatever the delete rules: a row cannot
    /// point at nothing). Partners that stay are reported as updated.
    func deleteJoinRows(_ writer: any StoreWriter) throws {
        // Keyed by the deleted object's side (entity and slot), which names one join table's column.
        var owners: [EntitySlot: (join: JoinTable, rowIDs: [Int64])] = [:]
        for object in context.deletedObjects {
            guard let rowID = object.rowID, !goneRows.contains(ObjectIdentifier(object)) else { continue }
            for relationship in object.entity.manyToManyRelationships {
                let side = EntitySlot(object.entity, relationship.slot)
                if owners[side] == nil {
                    guard let join = object.entity.joinTable(ofSlot: relationship.slot) else { continue }
                    owners[side] = (join, [])
                }
                owners[side]!.rowIDs.append(rowID)
            }
        }
        var removed: [String: Set<Int64>] = [:]
        var deleted: Set<ObjectID>?  // built when a deleted object has a join row
        for (join, rowIDs) in owners.values {
            let rows = try writer.rows(of: join.entity, columns: [join.ownerColumn], matching: rowIDs.map { [.integer($0)] })
            if !rows.isEmpty && deleted == nil {
                let written = context.deletedObjects.lazy.filter { $0.rowID != nil && !self.goneRows.contains(ObjectIdentifier($0)) }
                deleted = Set(written.map(\.objectID))
            }
            let memberIndex = join.entity.columns.firstIndex(of: join.memberColumn)!
            let memberEntity = join.entity.relationship(named: join.memberColumn)!.destinationName
            try writer.willDelete(from: join.entity, rowIDs: [], known: rows)
            for row in rows where removed[join.entity.name, default: []].insert(row.rowID).inserted {
                try writer.delete(from: join.entity, rowID: row.rowID)
                guard case .integer(let member) = row.values[memberIndex] else { continue }
                let partner = ObjectID.permanent(memberEntity, member)
                if deleted?.contains(partner) != true { outcome.changes.updated[memberEntity, default: []].insert(partner) }
            }
        }
    }

    /// Writes the pairs linked and unlinked since the last save, once all objects have rows: the
    /// pair's row is inserted if absent or deleted if present. Pairs with a deleted object are
    /// skipped (its join rows are gone); a duplicate folded into a survivor links the survivor.
    func writeJoinChanges(_ writer: any StoreWriter) throws {
        var tables: [String: PendingJoinRows] = [:]
        for object in context.insertedObjects + context.updatedObjects where !object.isDeleted {
            for relationship in object.entity.manyToManyRelationships {
                guard let join = object.entity.joinTable(ofSlot: relationship.slot) else { continue }
                let toMany = object.toMany(relationship.slot)
                for (members, linked) in [(toMany.linkedSinceSave, true), (toMany.unlinkedSinceSave, false)] {
                    for member in members where !member.isDeleted {
                        guard let owner = foreignKey(of: .object(object)), let other = foreignKey(of: .object(member)) else { continue }
                        tables[join.entity.name, default: PendingJoinRows(join: join.entity)]
                            .record(join.row(owner: owner, member: other), linked: linked, ends: (object, member))
                    }
                }
            }
        }
        for table in tables.values { try write(table, writer) }
    }

    private func write(_ table: PendingJoinRows, _ writer: any StoreWriter) throws {
        let stored = try writer.rows(of: table.join, columns: table.join.columns, matching: table.keys)
        let existing = Dictionary(stored.map { ($0.values, $0.rowID) }, uniquingKeysWith: { first, _ in first })
        try writer.willDelete(from: table.join, rowIDs: [], known: stored.filter { table.pairs[$0.values]?.linked == false })
        for key in table.keys {
            let (linked, ends) = table.pairs[key]!
            if linked && existing[key] == nil {
                _ = try writer.insert(into: table.join, values: key)
            } else if !linked, let rowID = existing[key] {
                try writer.delete(from: table.join, rowID: rowID)
            } else {
                continue
            }
            for end in [ends.0, ends.1] {
                guard let id = storedID(of: end) else { continue }
                outcome.changes.updated[id.entityName, default: []].insert(id)
            }
        }
    }

    /// The ID of the stored row an object is saved to, if that row existed before this save (a new
    /// row is reported as inserted).
    private func storedID(of object: ManagedObject) -> ObjectID? {
        let final = finalObject(object)
        let rowID = final.rowID ?? adoptedRows[ObjectIdentifier(final)]?.rowID
        return rowID.map { .permanent(final.entity.name, $0) }
    }
}

/// One join table's pairs for a save, in the order first seen; the first side to report a pair decides it.
struct PendingJoinRows {
    let join: EntityDescription
    private(set) var keys: [[StoredValue]] = []
    private(set) var pairs: [[StoredValue]: (linked: Bool, ends: (ManagedObject, ManagedObject))] = [:]

    init(join: EntityDescription) { self.join = join }

    mutating func record(_ key: [StoredValue], linked: Bool, ends: (ManagedObject, ManagedObject)) {
        guard pairs[key] == nil else { return }
        keys.append(key)
        pairs[key] = (linked, ends)
    }
}
