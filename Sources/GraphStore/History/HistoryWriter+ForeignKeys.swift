/// A deleted row's foreign key actions (`ON DELETE CASCADE` / `SET NULL`, the safety net behind
/// delete rules) change rows the store never hands the writer: a save deletes an owner before its
/// members. So their rows are recorded first, as the actions will leave them.
extension HistoryWriter {
    func recordForeignKeyActions(deleting entity: EntityDescription, rowID: Int64) throws {
        for (member, relationship, rule) in referencing(entity) {
            for row in try rows(of: member, pointingAt: rowID, through: relationship) where !recorder.knows(member, row.rowID) {
                if rule == .cascade {
                    try recordForeignKeyActions(deleting: member, rowID: row.rowID)
                    if member.keepsHistory { recorder.delete(member, row.rowID, before: row.values) }
                } else if member.keepsHistory {
                    recorder.update(member, row.rowID, columns: [relationship.name], values: [.null], before: row.values)
                }
            }
        }
    }

    /// ``ManagedObjectModel/referencing(_:)``, cached (it was looked up again for every row deleted).
    func referencing(_ entity: EntityDescription) -> [(EntityDescription, RelationshipDescription, DeleteRule)] {
        if let known = referencingCache[ObjectIdentifier(entity)] { return known }
        let found = model.referencing(entity)
        referencingCache[ObjectIdentifier(entity)] = found
        return found
    }
}

extension ManagedObjectModel {
    /// The to-ones of other entities whose foreign key points at `entity` with an action on delete:
    /// the inverse to-many's `.cascade` or `.nullify` (join tables are not recorded).
    func referencing(_ entity: EntityDescription) -> [(EntityDescription, RelationshipDescription, DeleteRule)] {
        entities.flatMap { member in
            member.toOneRelationships.compactMap { relationship in
                guard relationship.destinationName == entity.name else { return nil }
                let inverse = relationship.inverseName.flatMap { entity.relationship(named: $0) }
                let rule = inverse?.deleteRule ?? .nullify
                return rule == .cascade || rule == .nullify ? (member, relationship, rule) : nil
            }
        }
    }
}
