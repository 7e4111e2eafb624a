/// During one delete propagation: how many deleted objects each stored row was the destination
/// of, per to-one (what they pointed at when last saved), counted once over the context's
/// deleted objects as they grow; and how many rows the store holds pointing at those rows.
///
/// ``ToMany/hasLiveMember(besides:)`` answers from these, without loading the members: deleting
/// 24,000 photos of a million-photo catalog loaded every photo of every photographer they
/// touched, a cost in the catalog's size instead of the delete's (issue 24). The stored counts
/// are read for every destination at once (one query per to-one and per batch of newly deleted
/// objects), not one query per owner: a round trip each on PostgreSQL. Counts are kept by entity
/// and slot, not by name: the hook asks once per deleted member.
struct DeletedMembers {
    /// A to-many's inverse to-one, looked up once per pass: (member entity, its to-one).
    struct Inverse {
        let member: EntityDescription
        let slot: Int
        let column: String
        var key: EntitySlot { EntitySlot(member, slot) }
    }

    private var pass: UInt64 = 0
    private var counted = 0
    /// Member to-one → destination row → deleted members.
    private var deleted: [EntitySlot: [Int64: Int]] = [:]
    /// Member to-one → destination row → rows stored pointing at it (read once per row and pass).
    private var stored: [EntitySlot: [Int64: Int]] = [:]
    /// Owner entity and to-many slot → its inverse.
    private var inverses: [EntitySlot: Inverse] = [:]

    /// The inverse to-one of the to-many at `slot` of `owner`, whose members are `member`.
    mutating func inverse(of owner: EntityDescription, slot: Int, member: EntityDescription, in context: ObjectContext) -> Inverse? {
        startPass(context)
        let key = EntitySlot(owner, slot)
        if let known = inverses[key] { return known }
        guard let inverseSlot = owner.inverseSlot(of: slot), let toOne = member.relationship(atSlot: inverseSlot) else { return nil }
        let found = Inverse(member: member, slot: inverseSlot, column: toOne.name)
        inverses[key] = found
        return found
    }

    /// The deleted objects whose to-one `inverse` was stored pointing at `rowID`, and the rows
    /// stored pointing at it.
    mutating func counts(_ inverse: Inverse, pointingAt rowID: Int64, in context: ObjectContext) throws -> (deleted: Int, stored: Int) {
        startPass(context)
        countNewlyDeleted(context)
        let key = inverse.key
        if stored[key]?[rowID] == nil {
            let unread = Array(Set(deleted[key]?.keys.filter { stored[key]?[$0] == nil } ?? []).union([rowID]))
            let found = try context.read { try $0.groupCounts(entity: inverse.member.name, column: inverse.column, owners: unread) }
            for owner in unread { stored[key, default: [:]][owner] = found[owner] ?? 0 }
        }
        return (deleted[key]?[rowID] ?? 0, stored[key]?[rowID] ?? 0)
    }

    private mutating func startPass(_ context: ObjectContext) {
        if pass != context.deletePass { self = DeletedMembers(pass: context.deletePass) }
    }

    private mutating func countNewlyDeleted(_ context: ObjectContext) {
        let objects = context.deletedObjects
        while counted < objects.count {
            let object = objects[counted]
            counted += 1
            for slot in object.entity.toOneSlots {
                guard let destination = object.toOne(slot).committedRowID else { continue }
                deleted[EntitySlot(object.entity, slot), default: [:]][destination, default: 0] += 1
            }
        }
    }

    private init(pass: UInt64) { self.pass = pass }

    init() {}
}
