extension ToMany {
    /// Whether some member other than `object` is not deleted.
    ///
    /// For a `prepareForDeletion` that deletes an owner with its last member (a photographer lives
    /// only while a photo does). Such a hook runs once per deleted member, so during a save's delete
    /// propagation, where members only ever become deleted, the answer costs no pass over all the
    /// members each time (issue 24): loaded members found deleted at the front of the list are
    /// skipped by the next call, and members not loaded stay so (``DeletedMembers`` counts them).
    /// Outside a save it reads the members.
    public func hasLiveMember(besides object: Destination? = nil) -> Bool {
        let pass = owner?.context?.deletePass ?? 0
        if pass != 0, members == nil, let answer = try? hasLiveUnloadedMember(besides: object, pass: pass) { return answer }
        let members = loaded()
        var index = pass != 0 && liveScan.pass == pass ? min(liveScan.deletedPrefix, members.count) : 0
        var prefix = index
        defer { if pass != 0 { liveScan.pass = pass; liveScan.deletedPrefix = prefix } }
        while index < members.count {
            let member = members[index]
            index += 1
            if member.isDeleted {
                if prefix == index - 1 { prefix = index }
            } else if member !== object {
                return true
            }
        }
        return false
    }

    /// The same for members not loaded: those added in memory, and the stored ones (counted for
    /// every owner at once, once per propagation) less those deleted or moved elsewhere here.
    private func hasLiveUnloadedMember(besides object: Destination?, pass: UInt64) throws -> Bool? {
        guard !isManyToMany, let owner, let rowID = owner.rowID, let context = owner.context else { return nil }
        for added in pendingInserts.elements where !added.isDeleted && added !== object { return true }
        let member = try context.entity(for: Destination.self)
        guard let inverse = context.deletedMembers.inverse(of: owner.entity, slot: slot, member: member, in: context) else { return nil }
        let (deleted, stored) = try context.deletedMembers.counts(inverse, pointingAt: rowID, in: context)
        let isStoredHere = { (member: Destination) in member.toOne(inverse.slot).committedRowID == rowID }
        var gone = deleted
        for removed in pendingRemovals.elements where !removed.isDeleted && isStoredHere(removed) { gone += 1 }
        if let object, !object.isDeleted, isStoredHere(object), !pendingRemovals.contains(object) { gone += 1 }
        return stored > gone
    }
}

/// What ``ToMany/hasLiveMember(besides:)`` knows during one delete propagation
/// (``ObjectContext/deletePass``): how far the loaded members are deleted from the front. Any
/// other change of the members forgets it.
struct LiveMemberScan {
    var pass: UInt64 = 0
    var deletedPrefix = 0
}
