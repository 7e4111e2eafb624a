/// What persistent history reads of an entity's declaration (none of it is in the schema).
extension EntityDescription {
    /// Whether history records this entity's rows: not a join table's, nor an entity that opted out
    /// (``ManagedObject/keepsHistory``).
    var keepsHistory: Bool { !isJoin && objectType.keepsHistory }

    /// A join table's sides, by column: the entity whose rows the column holds and its to-many that
    /// the link changes; nil for a side whose entity keeps no history (and for every other entity).
    var joinSides: [(entity: EntityDescription, relationship: String)?] {
        guard isJoin else { return [] }
        return toOneRelationships.enumerated().map { column, side in
            let owner = side.destinationEntity
            guard owner.keepsHistory else { return nil }
            let relationship = owner.manyToManyRelationships.first { relationship in
                guard let join = owner.joinTable(ofSlot: relationship.slot) else { return false }
                return join.entity === self && join.ownerColumn == columns[column]
            }
            return relationship.map { (owner, $0.name) }
        }
    }

    /// The column (index in ``columns``) of the single-attribute unique key that names an object
    /// in history; nil when the entity has none (its row id names it then).
    var historyKeyColumn: Int? {
        uniqueConstraints.first { $0.count == 1 }.flatMap { columns.firstIndex(of: $0[0]) }
    }

    /// Whether history keeps the column's values before and after an update.
    func isTracked(column: Int) -> Bool {
        column < storedAttributes.count ? storedAttributes[column].isTracked : toOneRelationships[column - storedAttributes.count].isTracked
    }

    /// Whether a delete's tombstone keeps the column's value.
    func isPreservedOnDeletion(column: Int) -> Bool {
        column < storedAttributes.count
            ? storedAttributes[column].isPreservedOnDeletion : toOneRelationships[column - storedAttributes.count].isPreservedOnDeletion
    }

    /// The to-one stored in `column`, if it is a foreign key.
    func toOne(atColumn column: Int) -> RelationshipDescription? {
        column < storedAttributes.count ? nil : toOneRelationships[column - storedAttributes.count]
    }
}
