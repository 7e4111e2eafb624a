extension ToMany {
    /// Whether some member other than `object` is not deleted.
    ///
    /// For a `prepareForDeletion` that deletes an owner with its last member (a photographer lives
    /// only while a photo does). Such a hook runs once per deleted member: scanning all members
    /// each time made deleting n members of one owner cost n² (issue 24). During a save's delete
    /// propagation members only ever become deleted, so the members found deleted at the front
    /// of the list are skipped by the next call: the calls of one save cost about one pass over
    /// the members. Outside a save every call scans from the start.
    public func hasLiveMember(besides object: Destination? = nil) -> Bool {
        let members = loaded()
        let pass = owner?.context?.deletePass ?? 0
        var index = pass != 0 && liveScan.pass == pass ? min(liveScan.deletedPrefix, members.count) : 0
        var prefix = index
        defer { if pass != 0 { liveScan = LiveMemberScan(pass: pass, deletedPrefix: prefix) } }
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
}

/// How far the members of a to-many are known to be deleted, from the front, during one delete
/// propagation (``ObjectContext/deletePass``); any other change of the members forgets it.
struct LiveMemberScan {
    var pass: UInt64 = 0
    var deletedPrefix = 0
}
