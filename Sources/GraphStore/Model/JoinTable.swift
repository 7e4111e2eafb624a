import Synchronization

/// Where a many-to-many pair is stored: a hidden entity with one foreign key per side, unique
/// together, which the store creates, migrates and verifies as it does any entity's table and
/// writes with its ordinary row operations (so every store has many-to-many relationships).
///
/// The table is named after the side that names the pair (`Album.photos` ↔ `Photo.albums`, declared
/// `@ToMany(inverse: \Photo.$albums) var photos` on `Album`: table `Album_photos`). Its columns are
/// the two entities' names (`Album`, `Photo`); a pair within one entity (`Person.follows` ↔
/// `Person.followers`) names them after the relationships whose members they hold.
struct JoinTable: Sendable {
    let entity: EntityDescription
    /// The column holding the rows of the relationship's owner.
    let ownerColumn: String
    /// The column holding the rows of its members.
    let memberColumn: String

    /// The join table of a many-to-many relationship of `owner`, built once per relationship.
    static func of(_ relationship: RelationshipDescription, in owner: EntityDescription) -> JoinTable? {
        guard relationship.isManyToMany else { return nil }
        let key = Key(type: ObjectIdentifier(owner.objectType), slot: relationship.slot)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        guard let table = make(relationship, owner) else { return nil }
        cache.withLock { $0[key] = table }
        return table
    }

    private struct Key: Hashable {
        let type: ObjectIdentifier
        let slot: Int
    }

    private static let cache = Mutex<[Key: JoinTable]>([:])

    private static func make(_ relationship: RelationshipDescription, _ owner: EntityDescription) -> JoinTable? {
        let destination = relationship.destinationEntity
        guard let inverseName = relationship.inverseName, let inverse = destination.relationship(named: inverseName),
            inverse.isManyToMany
        else { return nil }
        // Built from the naming side, so both sides describe one table.
        let namesPair = relationship.inverse != nil
        let (first, second) = namesPair ? (relationship, inverse) : (inverse, relationship)
        let firstOwner = namesPair ? owner : destination
        let secondOwner = namesPair ? destination : owner
        // Column 0 holds the naming side's owners (members of `second`), column 1 its members.
        let columns = firstOwner.name == secondOwner.name ? [second.name, first.name] : [firstOwner.name, secondOwner.name]
        let tableName = firstOwner.name + "_" + first.name
        let entity = joinEntity(named: tableName, columns: columns, sides: (firstOwner.objectType, secondOwner.objectType))
        return namesPair ? JoinTable(entity: entity, ownerColumn: columns[0], memberColumn: columns[1])
                         : JoinTable(entity: entity, ownerColumn: columns[1], memberColumn: columns[0])
    }

    /// One entity instance per table, shared by both sides (the planner groups rows by entity identity).
    private static func joinEntity(named name: String, columns: [String], sides: (ManagedObject.Type, ManagedObject.Type)) -> EntityDescription {
        let key = JoinKey(name: name, first: ObjectIdentifier(sides.0), second: ObjectIdentifier(sides.1))
        return entities.withLock { entities in
            if let existing = entities[key] { return existing }
            let entity = EntityDescription(joinNamed: name, columns: columns, sides: sides)
            entities[key] = entity
            return entity
        }
    }

    private struct JoinKey: Hashable {
        let name: String
        let first: ObjectIdentifier
        let second: ObjectIdentifier
    }

    private static let entities = Mutex<[JoinKey: EntityDescription]>([:])

    /// The values of a join row linking `owner` to `member`, in the table's column order.
    func row(owner: Int64, member: Int64) -> [StoredValue] {
        entity.columns[0] == ownerColumn ? [.integer(owner), .integer(member)] : [.integer(member), .integer(owner)]
    }
}

extension EntityDescription {
    /// The join table of this entity's many-to-many relationship at `slot`.
    func joinTable(ofSlot slot: Int) -> JoinTable? {
        relationship(atSlot: slot).flatMap { JoinTable.of($0, in: self) }
    }
}
