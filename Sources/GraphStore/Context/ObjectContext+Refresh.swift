extension ObjectContext {
    /// Reads `object`'s row again: Core Data's `refresh(_:mergeChanges:)`.
    ///
    /// Without `mergeChanges`, its unsaved changes (and a pending delete) are dropped and it takes
    /// the stored values. With it, the values it changed stay on top of the stored ones, which become
    /// the values its next save expects to find: how a ``GraphStoreError/mergeConflicts(_:)`` is
    /// resolved by hand. Its to-many relationships load again on next read (keeping this context's
    /// unsaved moves; without `mergeChanges`, its unsaved many-to-many links and unlinks are dropped,
    /// on both sides). A new object, never saved, is left as it is.
    ///
    /// ```swift
    /// try context.refresh(book, mergeChanges: true)   // after a conflict: keep my edit, take theirs elsewhere
    /// try context.save()
    /// ```
    /// - Throws: ``GraphStoreError/objectNotFound(_:)`` when the row was deleted.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        precondition(object.context === self, "\(object.objectID) belongs to another context (or to none): refresh it in its own context")
        guard let rowID = object.rowID else { return }
        guard let row = try currentRow(of: object.entity, rowID) else { throw GraphStoreError.objectNotFound(object.objectID) }
        try reload(object, from: row, mergeChanges: mergeChanges)
        refaultToManys(of: object)
    }

    /// Takes the stored `row` as `object`'s values (see ``refresh(_:mergeChanges:)``), its to-manys left as they are.
    func reload(_ object: ManagedObject, from row: [StoredValue], mergeChanges: Bool) throws {
        let entity = object.entity
        if !mergeChanges {
            forgetChanges(of: object)
            discardJoinChanges(of: object)
        }
        for (index, attribute) in entity.storedAttributes.enumerated() {
            let storage = object.attribute(attribute.slot)
            if mergeChanges && storage.storedValue != storage.committed {
                storage.rebase(onto: row[index])
            } else if !storage.load(row[index]) {
                throw GraphStoreError.corruptValue(entity: entity.name, attribute: attribute.name, rowID: object.rowID ?? 0)
            }
        }
        for (offset, relationship) in entity.toOneRelationships.enumerated() {
            let stored: Int64? = if case .integer(let id) = row[entity.storedAttributes.count + offset] { id } else { nil }
            if mergeChanges && object.toOne(relationship.slot).isAssigned {
                object.toOne(relationship.slot).rebase(committedRowID: stored)
            } else {
                repoint(object, relationship, to: stored)
            }
        }
    }

    /// Forgets every object and every pending change, as a new context would start: Core Data's
    /// `reset()`. Objects it held are no longer in a context: reading them keeps working where it
    /// can, changing or inserting them is a precondition failure. Fetch again by `objectID`.
    public func reset() {
        for object in Array(registered.values) + insertedObjects + updatedObjects + deletedObjects { object.detachFromGraph() }
        registered = [:]
        pushedCopies = [:]
        clearPendingChanges()
    }

    /// Points a to-one at the stored row `rowID` as if just read, moving the owner between the
    /// inverse to-manys of the old and new destination.
    func repoint(_ object: ManagedObject, _ relationship: RelationshipDescription, to rowID: Int64?) {
        let toOne = object.toOne(relationship.slot)
        let destinationName = relationship.destinationName
        let old = toOne.loadedDestination ?? toOne.rowID.flatMap { registered[.permanent(destinationName, $0)] }
        guard old.map({ $0.rowID != rowID }) ?? (toOne.rowID != rowID) else { return toOne.commit(rowID: rowID) }
        let inverse = object.entity.inverseSlot(of: relationship.slot)
        if let old, let inverse { old.toMany(inverse).primitiveRemove(object) }
        toOne.load(rowID: rowID)
        if let rowID, let inverse, let destination = registered[.permanent(destinationName, rowID)] {
            destination.toMany(inverse).primitiveInsert(object)
        }
    }

    /// The row as this context should see it: the store's, with a parent's unsaved values on top.
    private func currentRow(of entity: EntityDescription, _ rowID: Int64) throws -> [StoredValue]? {
        try read({ try $0.rows(of: entity, rowIDs: [rowID]) }).first.map { withParentValues($0, entity) }
    }

    /// A stored row's values with a parent's unsaved values on top, for an object the parent holds.
    func withParentValues(_ row: StoredRow, _ entity: EntityDescription) -> [StoredValue] {
        var values = row.values
        if let source = parent?.registered[.permanent(entity.name, row.rowID)] {
            for (index, attribute) in entity.storedAttributes.enumerated() { values[index] = source.attribute(attribute.slot).storedValue }
        }
        return values
    }

    private func forgetChanges(of object: ManagedObject) {
        updatedObjects.removeAll { $0 === object }
        deletedObjects.removeAll { $0 === object }
        object.state = .clean
    }

    /// Lets the object's to-manys (those towards `destinations`, else all) load again, keeping
    /// members this context moved in or out unsaved.
    func refaultToManys(of object: ManagedObject, towards destinations: Set<String>? = nil) {
        for relationship in object.entity.relationships where relationship.isToMany {
            if let destinations, !destinations.contains(relationship.destinationName) { continue }
            if relationship.isManyToMany {
                object.toMany(relationship.slot).refaultLinks()
                continue
            }
            guard let inverseName = relationship.inverseName,
                let inverseSlot = relationship.destinationEntity.relationship(named: inverseName)?.slot
            else { continue }
            let toMany = object.toMany(relationship.slot)
            let pointingHere = { (member: ManagedObject) in
                let toOne = member.toOne(inverseSlot)
                return toOne.loadedDestination.map { $0 === object } ?? (toOne.rowID == object.rowID)
            }
            let additions = (insertedObjects + updatedObjects).filter {
                $0.entity === relationship.destinationEntity && $0.toOne(inverseSlot).isAssigned && pointingHere($0)
            }
            let removals = updatedObjects.filter {
                $0.entity === relationship.destinationEntity && $0.toOne(inverseSlot).committedRowID == object.rowID && !pointingHere($0)
            }
            toMany.refault(keeping: additions, removing: removals)
        }
    }
}
