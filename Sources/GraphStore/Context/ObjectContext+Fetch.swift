extension ObjectContext {
    /// The objects matching `request`, as this context's instances (see ``FetchRequest``).
    ///
    /// With `includesPendingChanges` (the default), the context's unsaved objects of the entity count
    /// as if saved: new ones that match are included, deleted ones are not, changed ones match by
    /// their unsaved values (matched and sorted in memory by the store's rules). Related objects'
    /// unsaved changes do not change which stored rows match, as in Core Data.
    public func fetch<T: ManagedObject>(_ request: FetchRequest<T>) throws -> [T] {
        let entity = try entity(for: T.self)
        releaseUnusedObjects()
        let pending = request.includesPendingChanges ? pendingObjects(of: entity) : (changed: [], deleted: [])
        var query = request.query
        let windowed = pending.changed.isEmpty && pending.deleted.isEmpty
        if !windowed {
            // The window applies after merging. Pending objects can take at most this many stored
            // rows out of the store's order, so the stored rows past that cannot reach the window.
            let displaced = pending.changed.count { $0.rowID != nil } + pending.deleted.count
            (query.limit, query.offset) = (request.limit.map { $0 + (request.offset ?? 0) + displaced }, nil)
        }
        // The rows and their prefetched destinations come from one snapshot of the store.
        let objects = try readingOneSnapshot {
            let (objects, rows) = try read { reader in
                let rows = try reader.fetch(query)
                return (try rows.map { try materialize(entity, $0) }, rows)
            }
            try prefetch(request.prefetchedRelationships, of: entity, rows: rows)
            return objects
        }
        if windowed { return objects.map { $0 as! T } }
        return applyingPendingChanges(objects, request, changed: pending.changed, deleted: pending.deleted)
    }

    /// How many stored objects match `request` (limit and offset apply).
    /// Like ``fetch(_:)``, it counts the context's unsaved changes unless `includesPendingChanges` is false.
    public func count<T: ManagedObject>(_ request: FetchRequest<T>) throws -> Int {
        let entity = try entity(for: T.self)
        if request.includesPendingChanges {
            let pending = pendingObjects(of: entity)
            if !pending.changed.isEmpty || !pending.deleted.isEmpty {
                if request.limit != nil || request.offset != nil { return try fetch(request).count }
                var query = request.query
                query.sortBy = []
                let deleted = deletedObjects.filter { pending.deleted.contains(ObjectIdentifier($0)) }
                return try countIncludingPendingChanges(query, changed: pending.changed, deleted: deleted)
            }
        }
        var query = request.query
        if request.limit != nil || request.offset != nil {
            return try read { try $0.fetch(query).count }
        }
        query.sortBy = []
        return try read { try $0.count(query) }
    }

    /// The object with `id`, from this context or the store.
    /// - Throws: ``GraphStoreError/objectNotFound(_:)`` when no such row exists.
    public func existingObject<T: ManagedObject>(with id: ObjectID, as type: T.Type = T.self) throws -> T {
        if let object = registeredObject(id) as? T { return object }
        guard let rowID = id.rowID, id.entityName == T.cachedEntityName else { throw GraphStoreError.objectNotFound(id) }
        let entity = try entity(for: T.self)
        guard let row = try read({ try $0.rows(of: entity, rowIDs: [rowID]) }).first else {
            throw GraphStoreError.objectNotFound(id)
        }
        return try materialize(entity, row) as! T
    }

    // MARK: - Internals

    func entity(for type: ManagedObject.Type) throws -> EntityDescription {
        guard let entity = container.model.entity(for: type) else {
            throw GraphStoreError.invalidModel(["\(type.entityName) is not an entity of this store's model"])
        }
        return entity
    }

    /// The registered instance for a row, or a new one built from it.
    func materialize(_ entity: EntityDescription, _ row: StoredRow) throws -> ManagedObject {
        let id = ObjectID.permanent(entity.name, row.rowID)
        if let existing = registered[id] { return existing }
        let object = entity.objectType.init()
        try load(row, into: object, entity)
        object.rowID = row.rowID
        object.objectID = id
        object.context = self
        object.state = .clean
        registered[id] = object
        if let parentObject = parent?.registered[id] { copyValues(from: parentObject, to: object, entity) }
        for pointer in pointers.removeValue(forKey: id) ?? [] { pointer.owner.toOne(pointer.slot).attach(object) }
        object.awakeFromFetch()
        return object
    }

    func load(_ row: StoredRow, into object: ManagedObject, _ entity: EntityDescription) throws {
        for (index, slot) in entity.storedAttributeSlots.enumerated() where !object.attribute(slot).load(row.values[index]) {
            throw GraphStoreError.corruptValue(entity: entity.name, attribute: entity.storedAttributes[index].name, rowID: row.rowID)
        }
        let offset = entity.storedAttributes.count
        for (index, relationship) in entity.toOneRelationships.enumerated() {
            guard case .integer(let rowID) = row.values[offset + index] else {
                object.toOne(relationship.slot).load(rowID: nil)
                continue
            }
            object.toOne(relationship.slot).load(rowID: rowID)
        }
    }

    /// A child context sees its parent's unsaved values for objects the parent holds.
    private func copyValues(from source: ManagedObject, to object: ManagedObject, _ entity: EntityDescription) {
        for attribute in entity.storedAttributes {
            _ = object.attribute(attribute.slot).load(source.attribute(attribute.slot).storedValue)
        }
    }

    /// Resolves a to-one destination row to an object, loading it when not registered.
    func registeredOrFaulted<T: ManagedObject>(_ type: T.Type, rowID: Int64) -> T? {
        let id = ObjectID.permanent(T.cachedEntityName, rowID)
        if let object = registered[id] as? T { return object }
        return try? existingObject(with: id, as: T.self)
    }

    /// The members of a to-many relationship: the destination rows whose inverse foreign key is `ownerRowID`.
    func members<T: ManagedObject>(_ type: T.Type, inverse: AnyKeyPath, ownerRowID: Int64) throws -> [T] {
        let destination = try entity(for: T.self)
        guard let column = destination.relationshipName(for: inverse) else { return [] }
        let query = StoreQuery(entity: destination.name, predicate: .compare(column: column, .equal, .integer(ownerRowID)))
        let members = try read { reader in try reader.fetch(query).map { try materialize(destination, $0) } }
        return members.compactMap { $0 as? T }
    }

    private func prefetch(_ relationships: [String], of entity: EntityDescription, rows: [StoredRow]) throws {
        for name in relationships {
            guard let relationship = entity.relationship(named: name),
                let column = entity.columns.firstIndex(of: name)
            else { continue }
            let destination = relationship.destinationEntity
            let ids = Set(rows.compactMap { row -> Int64? in
                guard case .integer(let id) = row.values[column] else { return nil }
                return registered[.permanent(destination.name, id)] == nil ? id : nil
            })
            guard !ids.isEmpty else { continue }
            _ = try read { reader in try reader.rows(of: destination, rowIDs: Array(ids)).map { try materialize(destination, $0) } }
        }
    }
}
