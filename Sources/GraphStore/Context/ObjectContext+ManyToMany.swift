/// Many-to-many relationships in a context: loading members through the join table, and keeping
/// both sides (and their unsaved join changes) in step when objects are deleted, merged or refreshed.
extension ObjectContext {
    /// The members of a many-to-many relationship: the destination rows the join table pairs with
    /// `ownerRowID` (`id IN (SELECT member FROM join WHERE owner = ?)`, one query).
    func linkedMembers<T: ManagedObject>(_ type: T.Type, of owner: EntityDescription, slot: Int, ownerRowID: Int64) throws -> [T] {
        let destination = try entity(for: T.self)
        guard let join = owner.joinTable(ofSlot: slot) else { return [] }
        let predicate = PredicateNode.anyMember(entity: join.entity.name, inverseColumn: join.memberColumn,
                                                .compare(column: join.ownerColumn, .equal, .integer(ownerRowID)))
        let query = StoreQuery(entity: destination.name, predicate: predicate)
        let members = try read { reader in try reader.fetch(query).map { try materialize(destination, $0) } }
        return members.compactMap { $0 as? T }
    }

    /// Takes a deleted object out of its partners' lists and unsaved join changes (its join rows go
    /// anyway); the partners count as updated. `.nullify`, and `.noAction` (a join row cannot dangle).
    func unlinkDeleted(_ object: ManagedObject, _ relationship: RelationshipDescription) throws {
        guard let inverseSlot = object.entity.inverseSlot(of: relationship.slot) else { return }
        for member in try destinations(of: object, relationship) where !member.isDeleted {
            object.toMany(relationship.slot).primitiveRemove(member)
            member.toMany(inverseSlot).primitiveRemove(object)
            member.toMany(inverseSlot).forgetJoinChange(object)
            member.didChangeProperty()
        }
    }

    /// A discarded duplicate's partners become its survivor's (merge policies take the union).
    func foldLinks(of discarded: ManagedObject, into survivor: ManagedObject, _ relationship: RelationshipDescription) {
        guard let inverseSlot = discarded.entity.inverseSlot(of: relationship.slot) else { return }
        for member in discarded.toMany(relationship.slot).anyMembers {
            member.toMany(inverseSlot).primitiveRemove(discarded)
            member.toMany(inverseSlot).primitiveInsert(survivor)
            survivor.toMany(relationship.slot).primitiveInsert(member)
        }
    }

    /// A new object a rollback sends away keeps no pairs: its partners forgot them too.
    func forgetLinks(of object: ManagedObject) {
        for relationship in object.entity.manyToManyRelationships { object.toMany(relationship.slot).unload() }
    }

    /// Refreshing without merging drops the object's unsaved join changes on both sides of each pair.
    func discardJoinChanges(of object: ManagedObject) {
        for relationship in object.entity.manyToManyRelationships {
            guard let inverseSlot = object.entity.inverseSlot(of: relationship.slot) else { continue }
            let toMany = object.toMany(relationship.slot)
            for member in toMany.linkedSinceSave + toMany.unlinkedSinceSave {
                member.toMany(inverseSlot).forgetJoinChange(object)
                member.toMany(inverseSlot).refaultLinks()
            }
            toMany.commitJoinChanges()
        }
    }
}
