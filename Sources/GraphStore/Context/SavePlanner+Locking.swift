/// Optimistic locking, as Core Data does it: the rows a save updates or deletes must still hold the
/// values the context read. The values themselves are compared (no version column): the context
/// keeps them anyway for change tracking, so the check costs one read per entity per save and no
/// schema change; imports, which hold no objects, skip it.
extension SavePlanner {
    /// Reads the rows of the objects this save updates or deletes, before any write, and compares
    /// them with the context's snapshot (the deleted ones are kept for history's tombstones). Under
    /// `.error` every difference is a conflict; under `objectTrump`/`storeTrump` a changed row is
    /// merged per column by ``updateRows``. A row deleted elsewhere is a conflict under every
    /// policy when the object was changed (there is no row to merge into); deleting it again is no
    /// conflict for the trump policies, and neither is deleting a row changed elsewhere.
    func checkSnapshots(_ writer: any StoreWriter) throws {
        var conflicts: [MergeConflict] = []
        for entity in context.container.model.entities {
            let objects = (context.updatedObjects.filter { $0.state == .updated } + context.deletedObjects)
                .filter { $0.entity === entity && $0.rowID != nil }
            guard !objects.isEmpty else { continue }
            let rows = try writer.rows(of: entity, rowIDs: objects.map { $0.rowID! })
            let stored = Dictionary(rows.map { ($0.rowID, $0.values) }, uniquingKeysWith: { first, _ in first })
            for object in objects {
                let row = stored[object.rowID!]
                if object.isDeleted, let row {
                    deletedRows[ObjectIdentifier(entity), default: []].append(StoredRow(rowID: object.rowID!, values: row))
                }
                // A trump policy deletes a changed row all the same: only a row gone matters.
                if policy != .error && object.isDeleted && row != nil { continue }
                let snapshot = Self.snapshot(of: object)
                if row == snapshot { continue }
                if policy != .error, let row {
                    if !object.isDeleted { storedRows[ObjectIdentifier(object)] = row }
                } else if policy != .error && object.isDeleted {
                    goneRows.insert(ObjectIdentifier(object))  // deleted twice: nothing to write or report
                } else {
                    conflicts.append(MergeConflict(object: object.objectID, cachedValues: Self.named(snapshot, entity),
                                                   storedValues: row.map { Self.named($0, entity) }))
                }
            }
        }
        if !conflicts.isEmpty { throw GraphStoreError.mergeConflicts(conflicts) }
    }

    /// The row as the context last read or wrote it, in column order.
    static func snapshot(of object: ManagedObject) -> [StoredValue] {
        let entity = object.entity
        var values: [StoredValue] = []
        values.reserveCapacity(entity.columns.count)
        for slot in entity.storedAttributeSlots { values.append(object.attribute(slot).committed ?? .null) }
        for relationship in entity.toOneRelationships {
            values.append(object.toOne(relationship.slot).committedRowID.map(StoredValue.integer) ?? .null)
        }
        return values
    }

    private static func named(_ values: [StoredValue], _ entity: EntityDescription) -> [String: StoredValue] {
        Dictionary(uniqueKeysWithValues: zip(entity.columns, values))
    }
}
