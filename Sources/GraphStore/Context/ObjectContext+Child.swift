extension ObjectContext {
    /// A scratch context whose `save()` pushes its changes into this context instead of the store
    /// (for an edit that may be abandoned). It reads the store directly, seeing this context's
    /// unsaved values for objects this context holds. Use it on the same task as its parent.
    public func newChildContext() -> ObjectContext {
        ObjectContext(container: container, parent: self, mergePolicy: mergePolicy)
    }

    /// Replays this child's inserts, changes and deletes on `parent`'s objects, then forgets them here.
    ///
    /// Objects this child inserted stay in it, clean, each tied to its copy in the parent: later
    /// changes and deletes of them push to that copy too.
    func push(into parent: ObjectContext) throws {
        var counterparts: [ObjectIdentifier: ManagedObject] = [:]
        for object in insertedObjects {
            let copy = type(of: object).init()
            parent.insert(copy, awake: false)
            copy.objectID = object.objectID
            counterparts[ObjectIdentifier(object)] = copy
        }
        func counterpart(_ object: ManagedObject) throws -> ManagedObject {
            if let copy = counterparts[ObjectIdentifier(object)] { return copy }
            let copy = try pushedCopies[object.objectID].map { copy in
                // The parent rolled back or deleted it: there is nothing left to change.
                guard copy.context === parent else { throw GraphStoreError.objectNotFound(object.objectID) }
                return copy
            } ?? parent.existingObject(with: object.objectID, as: ManagedObject.self, entity: object.entity)
            counterparts[ObjectIdentifier(object)] = copy
            return copy
        }
        for object in insertedObjects + updatedObjects {
            try copyChanges(of: object, to: counterpart(object), counterpart: counterpart)
        }
        for object in deletedObjects where object.rowID != nil || counterparts[ObjectIdentifier(object)] != nil
            || pushedCopies[object.objectID] != nil
        {
            parent.delete(try counterpart(object))
        }
        for update in rowUpdates { parent.apply(update) }
        settlePushed(counterparts)
    }

    /// After a push: inserted and changed objects are clean here (their values now the parent's),
    /// deleted ones leave this context.
    private func settlePushed(_ counterparts: [ObjectIdentifier: ManagedObject]) {
        for object in insertedObjects {
            pushedCopies[object.objectID] = counterparts[ObjectIdentifier(object)]
            registered[object.objectID] = object
        }
        for object in insertedObjects + updatedObjects {
            object.forEachAttribute { $0.commit() }
            object.forEachToOne { $0.commit(rowID: $0.loadedDestination?.rowID ?? $0.rowID) }
            object.forEachToMany { $0.commitJoinChanges() }
            object.state = .clean
        }
        for object in deletedObjects {
            registered[object.objectID] = nil
            pushedCopies[object.objectID] = nil
            object.context = nil
        }
        clearPendingChanges()
    }

    private func copyChanges(of object: ManagedObject, to copy: ManagedObject, counterpart: (ManagedObject) throws -> ManagedObject) throws {
        let entity = object.entity
        let isNew = object.state == .inserted
        for attribute in entity.storedAttributes {
            let source = object.attribute(attribute.slot)
            // A new object's copy takes every value (its awakeFromInsert defaults too), but only
            // assigned ones count as assigned for merge policies.
            guard source.isAssigned || isNew else { continue }
            _ = copy.attribute(attribute.slot).assign(source.storedValue)
            if !source.isAssigned { copy.attribute(attribute.slot).clearAssignment() }
            copy.didChangeProperty()
        }
        for relationship in entity.toOneRelationships where object.toOne(relationship.slot).isAssigned {
            let destination = try object.toOne(relationship.slot).anyDestination.map(counterpart)
            copy.toOne(relationship.slot).set(destination)
        }
        // Both sides of a pair replay it; linking twice is linking once. A partner deleted here takes
        // its pairs with it in the parent (or never reached it, if new).
        for relationship in entity.manyToManyRelationships {
            let toMany = object.toMany(relationship.slot)
            for member in toMany.linkedSinceSave where !member.isDeleted { copy.toMany(relationship.slot).link(try counterpart(member)) }
            for member in toMany.unlinkedSinceSave where !member.isDeleted { copy.toMany(relationship.slot).unlink(try counterpart(member)) }
        }
    }

    /// `existingObject(with:)` for a type known only at run time.
    func existingObject(with id: ObjectID, as: ManagedObject.Type, entity: EntityDescription) throws -> ManagedObject {
        if let object = registeredObject(id) { return object }
        guard let rowID = id.rowID, let row = try read({ try $0.rows(of: entity, rowIDs: [rowID]) }).first else {
            throw GraphStoreError.objectNotFound(id)
        }
        return try materialize(entity, row)
    }
}
