extension ObjectContext {
    /// Sets attributes of the stored row `id` at the next save without loading it: for changes
    /// worked out from ``fetchColumns(_:_:)`` values, where fetching objects only to assign them
    /// would cost more than the write.
    ///
    /// ```swift
    /// context.update(photographerID, .set(\Photographer.$ownerID, to: "10104729@N02"))
    /// try context.save()
    /// ```
    /// An object this context holds for the row takes the values at once, as if assigned. Otherwise
    /// the row is updated in the save's transaction, before the context's inserts, changes and
    /// deletes, and listed in the save's ``ChangeSet``; no hooks or validation run for it (there is
    /// no object). The save fails with ``GraphStoreError/objectNotFound(_:)`` if no row has `id`.
    public func update<T: ManagedObject>(_ id: ObjectID, _ assignments: AttributeAssignment<T>...) {
        update(id, assignments)
    }

    /// The same, with the assignments in an array (built by a function, say).
    public func update<T: ManagedObject>(_ id: ObjectID, _ assignments: [AttributeAssignment<T>]) {
        precondition(id.entityName == T.cachedEntityName, "\(id) is not an object ID of \(T.cachedEntityName)")
        guard !assignments.isEmpty else { return }
        // A loop, not two `map`s: unspecialized across modules, each `map` cost ~2k instructions.
        var columns: [String] = [], values: [StoredValue] = []
        for assignment in assignments {
            columns.append(assignment.column)
            values.append(assignment.value)
        }
        apply(RowUpdate(id: id, columns: columns, values: values))
    }
}

extension SavePlanner {
    /// Writes the context's row updates (``ObjectContext/update(_:_:)``).
    func writeRowUpdates(_ writer: any StoreWriter) throws {
        for update in context.rowUpdates {
            guard let rowID = update.id.rowID, let entity = context.container.model.entity(named: update.id.entityName),
                try writer.update(entity, rowID: rowID, columns: update.columns, values: update.values)
            else { throw GraphStoreError.objectNotFound(update.id) }
            outcome.changes.updated[entity.name, default: []].insert(update.id)
        }
    }
}

extension ObjectContext {
    /// Assigns `update` to the object this context holds for the row, or keeps it for the save.
    /// (A child context's save replays its row updates here on the parent.)
    func apply(_ update: RowUpdate) {
        if let object = registeredObject(update.id) {
            guard !object.isDeleted, let entity = container.model.entity(named: update.id.entityName) else { return }
            for (column, value) in zip(update.columns, update.values) {
                if let attribute = entity.attribute(named: column) { _ = object.attribute(attribute.slot).assign(value) }
            }
            object.didChangeProperty()
            return
        }
        rowUpdates.append(update)
    }
}
