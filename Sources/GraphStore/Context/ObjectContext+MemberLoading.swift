/// Loading the to-manys of many objects at once: one query per 500 owners and one per 500 members,
/// where loading them owner by owner costs a query each (deleting 24,000 tagged photos ran 24,000).
extension ObjectContext {
    /// Loads, for every object of `objects`, the to-many relationships `wanted` picks that are not
    /// loaded yet, exactly as reading each would.
    func loadMembers(of objects: [ManagedObject], where wanted: (RelationshipDescription) -> Bool) throws {
        var byEntity: [ObjectIdentifier: [ManagedObject]] = [:]
        for object in objects where object.rowID != nil { byEntity[ObjectIdentifier(object.entity), default: []].append(object) }
        for owners in byEntity.values {
            for relationship in owners[0].entity.relationships where relationship.isToMany && wanted(relationship) {
                try loadMembers(of: owners, relationship)
            }
        }
    }

    func loadMembers(of owners: [ManagedObject], _ relationship: RelationshipDescription) throws {
        let unloaded = owners.filter { !$0.toMany(relationship.slot).isLoaded }
        guard unloaded.count > 1 else { return }
        let destination = relationship.destinationEntity
        let stored = try read { reader -> [Int64: [ManagedObject]] in
            let pairs = try reader.pairs(of: unloaded[0].entity, unloaded.compactMap(\.rowID), relationship)
            // Members this context holds already are not read again (a cascade's, once deleted).
            var objects: [Int64: ManagedObject] = [:]
            var unread: Set<Int64> = []
            for pair in pairs where objects[pair.destination] == nil {
                if let known = registered[.permanent(destination.name, pair.destination)] {
                    objects[pair.destination] = known
                } else {
                    unread.insert(pair.destination)
                }
            }
            for row in try reader.rows(of: destination, rowIDs: Array(unread)) {
                objects[row.rowID] = try materialize(destination, row)
            }
            var members: [Int64: [ManagedObject]] = [:]
            for pair in pairs.sorted(by: { $0.destination < $1.destination }) {
                if let object = objects[pair.destination] { members[pair.owner, default: []].append(object) }
            }
            return members
        }
        for owner in unloaded { owner.toMany(relationship.slot).load(stored: owner.rowID.flatMap { stored[$0] } ?? []) }
    }
}
