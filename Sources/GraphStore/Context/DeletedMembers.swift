/// During one delete propagation: how many deleted objects each stored row was the destination
/// of, per to-one (what they pointed at when last saved), counted once over the context's
/// deleted objects as they grow.
///
/// ``ToMany/hasLiveMember(besides:)`` answers from it and a count of the stored members, without
/// loading them: deleting 24,000 photos of a million-photo catalog loaded every photo of every
/// photographer they touched, a cost in the catalog's size instead of the delete's (issue 24).
struct DeletedMembers {
    private var pass: UInt64 = 0
    private var counted = 0
    /// "Member.toOne" → destination row → deleted members.
    private var counts: [String: [Int64: Int]] = [:]

    /// The deleted objects whose `relationship` ("Entity.toOne") was stored pointing at `rowID`.
    mutating func count(_ relationship: String, pointingAt rowID: Int64, in context: ObjectContext) -> Int {
        if pass != context.deletePass { self = DeletedMembers(pass: context.deletePass) }
        let deleted = context.deletedObjects
        while counted < deleted.count {
            let object = deleted[counted]
            counted += 1
            for toOne in object.entity.toOneRelationships {
                guard let destination = object.toOne(toOne.slot).committedRowID else { continue }
                counts[object.entity.name + "." + toOne.name, default: [:]][destination, default: 0] += 1
            }
        }
        return counts[relationship]?[rowID] ?? 0
    }

    private init(pass: UInt64) { self.pass = pass }

    init() {}
}
