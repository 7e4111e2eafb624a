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
        var index = 0
        while index < deletedObjects.count {
            let object = deletedObjects[index]
            index += 1
            guard prepared.insert(ObjectIdentifier(object)).inserted else { continue }
            object.prepareForDeletion()
            for relationship in object.entity.relationships where relationship.deleteRule == .cascade {
                for destination in try destinations(of: object, relationship) { delete(destination) }
            }
        }
        try loadMembers(of: deletedObjects) { [.deny, .nullify].contains($0.deleteRule) || ($0.isManyToMany && $0.deleteRule == .noAction) }
        try checkDenials()
        for object in deletedObjects { try nullify(object) }
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
