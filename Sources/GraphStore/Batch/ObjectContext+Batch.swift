extension ObjectContext {
    /// Deletes every stored object `request` matches, in the store, without loading any of them
    /// (Core Data's `NSBatchDeleteRequest`), in one transaction: all of it or none of it.
    ///
    /// Unlike Core Data, delete rules hold, set-based (see <doc:BatchOperations>): cascades delete
    /// further rows, nullify clears the members' to-ones, deny refuses the whole batch, and owners a
    /// `deletesOwnerWhenEmpty` to-many is emptied of go too. Persistent history records every row.
    /// `prepareForDeletion` never runs: the objects are never loaded. The request's sort, limit and
    /// offset are ignored, as are this context's unsaved changes; contexts holding deleted or
    /// changed objects do not see the batch until they refresh them.
    ///
    /// - Returns: every row deleted (matched, cascaded, emptied owners) and every row changed.
    /// - Throws: ``GraphStoreError/deleteDenied(object:relationship:count:)``, or a failed write.
    @discardableResult
    public func batchDelete<T: ManagedObject>(_ request: FetchRequest<T>) throws -> ChangeSet {
        precondition(parent == nil, "batchDelete(_:) runs on the store: call it on a context without a parent")
        let entity = try entityInModel(T.self)
        return try batchWrite { writer in
            var batch = BatchDelete(writer: writer, model: container.model)
            return try batch.run(entity, request.predicate?.node)
        }
    }

    /// Sets attributes of every stored object `request` matches, in the store, without loading any
    /// (Core Data's `NSBatchUpdateRequest`), in one transaction. Persistent history records each
    /// row's tracked values. Contexts holding matched objects keep their values until they refresh.
    ///
    /// - Returns: the rows updated.
    /// - Throws: ``GraphStoreError/validationFailed(_:)`` when an assignment sets an attribute of a
    ///   unique constraint and some row matches (every row would take the same value: change such
    ///   values through a context, whose save resolves conflicts); or a failed write.
    @discardableResult
    public func batchUpdate<T: ManagedObject>(_ request: FetchRequest<T>, _ assignments: AttributeAssignment<T>...) throws -> ChangeSet {
        precondition(parent == nil, "batchUpdate(_:_:) runs on the store: call it on a context without a parent")
        let entity = try entityInModel(T.self)
        return try batchWrite { writer in
            try BatchUpdate(writer: writer).run(entity, request.predicate?.node, assignments.map(\.column), assignments.map(\.value))
        }
    }

    private func entityInModel(_ type: ManagedObject.Type) throws -> EntityDescription {
        guard let entity = container.model.entity(for: type) else {
            preconditionFailure("\(type.cachedEntityName) is not an entity of this store's model")
        }
        return entity
    }

    /// One store transaction named for history, run again on contention as a save is.
    private func batchWrite(_ body: (any StoreWriter) throws -> ChangeSet) throws -> ChangeSet {
        for attempt in 1... {
            do {
                return try store.write(deferringForeignKeys: true) { writer in
                    writer.describeTransaction(author: transactionAuthor, context: name)
                    return try body(writer)
                }
            } catch let failure as SerializationFailure {
                if attempt == Self.saveAttempts { throw GraphStoreError.writeFailed(failure.failure) }
            } catch let violation as UniqueViolation {
                throw GraphStoreError.writeFailed(violation.failure)
            }
        }
        fatalError("unreachable")
    }
}
