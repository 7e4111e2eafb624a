extension ObjectContext {
    /// Brings the objects this context holds up to date with a save made elsewhere (another
    /// context's ``onDidSave(_:)``, an import session's ``ImportResult/changes``): Core Data's
    /// `mergeChanges(fromContextDidSave:)`.
    ///
    /// - Updated: each object held here is read again, as ``refresh(_:mergeChanges:)`` with
    ///   `mergeChanges: true` does: values it changed and has not saved stay on top, and the
    ///   stored values become those its next save expects (so that save writes its own changes
    ///   over the other save's, property by property, without a merge conflict).
    /// - Deleted: each object held here leaves the context as deleted (``ManagedObject/isDeleted``,
    ///   no context), its unsaved changes dropped, as a save's deleted objects do. Changing it
    ///   afterwards stops the process; a pending object of this context still pointing at it
    ///   makes the next save throw ``GraphStoreError/foreignObject(_:)``.
    /// - Inserted: fetches read the store, so they find them; loaded to-manys that could hold
    ///   them (or lose or gain members by the updates and deletes) load again on next read,
    ///   keeping this context's unsaved moves.
    ///
    /// A row held here as updated but gone from the store is treated as deleted. Rows are read
    /// in one snapshot, 500 per query.
    public func mergeChanges(from changes: ChangeSet) throws {
        let updated = changes.updated.values.flatMap { $0 }.compactMap { registered[$0] }
        let deleted = changes.deleted.values.flatMap { $0 }.compactMap { registered[$0] }
        let gone = try reloadStored(updated)
        forgetDeletedElsewhere(deleted + gone)
        let touched = Set(changes.inserted.keys).union(changes.updated.keys).union(changes.deleted.keys)
        for object in registered.values where object.rowID != nil { refaultToManys(of: object, towards: touched) }
    }

    /// Reads every object this context holds again (Core Data's `refreshAllObjects()`): use it
    /// when another process, or a save whose ``ChangeSet`` you do not have, changed the store.
    ///
    /// Objects without pending changes take the stored values. Objects with pending changes keep
    /// them on top of the stored values, as ``refresh(_:mergeChanges:)`` with `mergeChanges: true`
    /// (a pending delete stays pending). New objects, never saved, are left as they are. Objects
    /// whose row is gone leave the context as deleted, as in ``mergeChanges(from:)``. Every loaded
    /// to-many loads again on next read.
    public func refreshAllObjects() throws {
        let stored = registered.values.filter { $0.rowID != nil }
        forgetDeletedElsewhere(try reloadStored(stored))
        for object in registered.values where object.rowID != nil { refaultToManys(of: object) }
    }

    /// Reloads `objects` from their rows, keeping their unsaved changes on top; returns those whose row is gone.
    private func reloadStored(_ objects: [ManagedObject]) throws -> [ManagedObject] {
        let byEntity = Dictionary(grouping: objects) { $0.entity.name }
        var gone: [ManagedObject] = []
        try readingOneSnapshot {
            for group in byEntity.values {
                let entity = group[0].entity
                let rows = try read { reader in try reader.rows(of: entity, rowIDs: group.compactMap(\.rowID)) }
                let byRowID = Dictionary(rows.map { ($0.rowID, $0) }, uniquingKeysWith: { first, _ in first })
                for object in group {
                    guard let row = object.rowID.flatMap({ byRowID[$0] }) else {
                        gone.append(object)
                        continue
                    }
                    try reload(object, from: withParentValues(row, entity), mergeChanges: true)
                }
            }
        }
        return gone
    }

    /// Objects whose rows another save deleted leave the context, as this context's own save's do.
    private func forgetDeletedElsewhere(_ objects: [ManagedObject]) {
        guard !objects.isEmpty else { return }
        let leaving = Set(objects.map(ObjectIdentifier.init))
        updatedObjects.removeAll { leaving.contains(ObjectIdentifier($0)) }
        deletedObjects.removeAll { leaving.contains(ObjectIdentifier($0)) }
        for object in objects {
            registered[object.objectID] = nil
            pushedCopies[object.objectID] = nil
            object.state = .deleted
            object.context = nil
        }
    }
}
