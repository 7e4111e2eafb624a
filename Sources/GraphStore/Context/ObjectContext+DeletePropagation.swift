extension ObjectContext {
    /// Applies delete rules at save time, in three passes so that a `deny` fails before anything changes:
    /// 1. closure: `prepareForDeletion` once per object (cascade victims included), then cascade;
    /// 2. deny: any deleted object whose `deny` relationship still holds a live object fails the save;
    /// 3. nullify: inverses of deleted objects are cleared in memory (and so in the store); a deleted
    ///    object leaves its many-to-many partners' lists (its join rows are deleted with it).
    /// `prepared` holds the objects already prepared in this save, so a repeated call prepares only newcomers.
    func propagateDeletes(_ prepared: inout Set<ObjectIdentifier>) throws {
        deletePasses += 1
        deletePass = deletePasses
        defer { deletePass = 0 }
        try loadMembers(of: deletedObjects) { $0.deleteRule == .cascade }
        var batched: [String: Int] = [:]
        var index = 0
        while index < deletedObjects.count {
            let object = deletedObjects[index]
            index += 1
            guard prepared.insert(ObjectIdentifier(object)).inserted else { continue }
            object.prepareForDeletion()
            for relationship in object.entity.relationships where relationship.deleteRule == .cascade {
                try loadCascadeMembers(from: index - 1, of: object, relationship, batched: &batched)
                for destination in try destinations(of: object, relationship) { delete(destination) }
            }
        }
        try loadMembers(of: deletedObjects) { [.deny, .nullify].contains($0.deleteRule) || ($0.isManyToMany && $0.deleteRule == .noAction) }
        try checkDenials()
        for object in deletedObjects { try nullify(object) }
    }

    /// Objects deleted during the pass (by hooks or cascades) load a cascading to-many together:
    /// read one by one, deleting a photographer's photos from a hook cost a query per photographer
    /// (issue 24). `batched` keeps, per entity and relationship, the index up to which the deleted
    /// objects were already loaded, so each is looked at once.
    private func loadCascadeMembers(from start: Int, of object: ManagedObject, _ relationship: RelationshipDescription,
                                    batched: inout [String: Int]) throws {
        guard relationship.isToMany, !object.toMany(relationship.slot).isLoaded else { return }
        let key = object.entity.name + "." + relationship.name
        guard start >= batched[key, default: 0] else { return }
        batched[key] = deletedObjects.count
        let owners = deletedObjects[start...].filter { $0.entity === object.entity }
        try loadMembers(of: owners, relationship)
    }

    private func checkDenials() throws {
        for object in deletedObjects {
            for relationship in object.entity.relationships where relationship.deleteRule == .deny {
                let live = try destinations(of: object, relationship).filter { !$0.isDeleted }
                if !live.isEmpty {
                    throw GraphStoreError.deleteDenied(object: object.objectID, relationship: "\(object.entity.name).\(relationship.name)", count: live.count)
                }
            }
        }
    }

    private func nullify(_ object: ManagedObject) throws {
        for relationship in object.entity.relationships {
            if relationship.isManyToMany {
                if relationship.deleteRule == .nullify || relationship.deleteRule == .noAction { try unlinkDeleted(object, relationship) }
            } else if relationship.isToMany {
                guard relationship.deleteRule == .nullify else { continue }
                for member in try destinations(of: object, relationship) where !member.isDeleted {
                    object.toMany(relationship.slot).primitiveRemove(member)
                    member.toOne(member.entity.relationship(named: relationship.inverseName!)!.slot).setPrimitive(nil)
                }
            } else if relationship.deleteRule != .noAction, let destination = object.toOne(relationship.slot).anyDestination, !destination.isDeleted,
                let inverse = relationship.inverseName.flatMap(destination.entity.relationship(named:))
            {
                destination.toMany(inverse.slot).primitiveRemove(object)
            }
        }
    }

    /// The live objects a relationship points at, loading a to-many from the store if needed.
    func destinations(of object: ManagedObject, _ relationship: RelationshipDescription) throws -> [ManagedObject] {
        if !relationship.isToMany { return object.toOne(relationship.slot).anyDestination.map { [$0] } ?? [] }
        return try object.toMany(relationship.slot).loadedMembers()
    }
}
