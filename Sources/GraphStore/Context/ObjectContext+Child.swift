extension ObjectContext {
    /// A scratch context whose `save()` pushes its changes into this context instead of the store
    /// (for an edit that may be abandoned). It reads the store directly, seeing this context's
    /// unsaved values for objects this context holds. Use it on the same task as its parent.
    public func newChildContext() -> ObjectContext {
        ObjectContext(container: container, parent: self, mergePolicy: mergePolicy)
    }

    /// Replays this child's inserts, changes and deletes on `parent`'s objects, then forgets them here.
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
            let copy = try parent.existingObject(with: object.objectID, as: ManagedObject.self, entity: object.entity)
            counterparts[ObjectIdentifier(object)] = copy
            return copy
        }
        for object in insertedObjects + updatedObjects {
            try copyChanges(of: object, to: counterpart(object), counterpart: counterpart)
        }
        for object in deletedObjects where object.rowID != nil || counterparts[ObjectIdentifier(object)] != nil {
            parent.delete(try counterpart(object))
        }
        for object in updatedObjects + deletedObjects where object.rowID != nil { object.state = .clean }
        for object in updatedObjects { object.forEachAttribute { $0.commit() } }
        for update in rowUpdates { parent.apply(update) }
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
