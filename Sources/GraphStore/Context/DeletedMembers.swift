/// During one delete propagation: how many deleted objects each stored row was the destination
/// of, per to-one (what they pointed at when last saved), counted once over the context's
/// deleted objects as they grow; and how many rows the store holds pointing at those rows.
///
/// ``ToMany/hasLiveMember(besides:)`` answers from these, without loading the members: deleting
/// 24,000 photos of a million-photo catalog loaded every photo of every photographer they
/// touched, a cost in the catalog's size instead of the delete's (issue 24). The stored counts
/// are read for every destination at once (one query per to-one and per batch of newly deleted
/// objects), not one query per owner: a round trip each on PostgreSQL.
struct DeletedMembers {
    private var pass: UInt64 = 0
    private var counted = 0
    /// "Member.toOne" → destination row → deleted members.
    private var deleted: [String: [Int64: Int]] = [:]
    /// "Member.toOne" → destination row → rows stored pointing at it (read once per row and pass).
    private var stored: [String: [Int64: Int]] = [:]

    /// The deleted objects whose to-one `column` of `member` was stored pointing at `rowID`, and
    /// the rows stored pointing at it.
    mutating func counts(_ member: EntityDescription, _ column: String, pointingAt rowID: Int64,
                         in context: ObjectContext) throws -> (deleted: Int, stored: Int) {
        if pass != context.deletePass { self = DeletedMembers(pass: context.deletePass) }
        countNewlyDeleted(context)
        let key = member.name + "." + column
        if stored[key]?[rowID] == nil {
            let unread = Array(Set(deleted[key]?.keys.filter { stored[key]?[$0] == nil } ?? []).union([rowID]))
            let found = try context.read { try $0.groupCounts(entity: member.name, column: column, owners: unread) }
            for owner in unread { stored[key, default: [:]][owner] = found[owner] ?? 0 }
        }
        return (deleted[key]?[rowID] ?? 0, stored[key]?[rowID] ?? 0)
    }

    private mutating func countNewlyDeleted(_ context: ObjectContext) {
        let objects = context.deletedObjects
        while counted < objects.count {
            let object = objects[counted]
            counted += 1
            for toOne in object.entity.toOneRelationships {
                guard let destination = object.toOne(toOne.slot).committedRowID else { continue }
                deleted[object.entity.name + "." + toOne.name, default: [:]][destination, default: 0] += 1
            }
        }
    }

    private init(pass: UInt64) { self.pass = pass }

    init() {}
}
