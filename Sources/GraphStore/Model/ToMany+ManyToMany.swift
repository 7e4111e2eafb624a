/// Linking and unlinking the two sides of a many-to-many relationship. Both sides' lists change at
/// once in memory (no query, loaded or not), both objects count as updated, and both record the
/// pair for the next save, which writes or deletes its join row in the save's transaction.
extension ToMany {
    func link(_ object: Destination, owner: ManagedObject) {
        primitiveInsert(object)
        joinChanges.record(object, linked: true)
        owner.didChangeProperty()
        // An object of another context keeps the link on this side only: the save throws `foreignObject`.
        guard owner.sharesGraph(with: object), let inverse = inverse(in: object, owner) else { return }
        inverse.primitiveInsert(owner)
        inverse.recordJoinChange(owner, linked: true)
        object.didChangeProperty()
    }

    func unlink(_ object: Destination, owner: ManagedObject) {
        primitiveRemove(object)
        joinChanges.record(object, linked: false)
        owner.didChangeProperty()
        guard owner.sharesGraph(with: object), let inverse = inverse(in: object, owner) else { return }
        inverse.primitiveRemove(owner)
        inverse.recordJoinChange(owner, linked: false)
        object.didChangeProperty()
    }

    /// The member's to-many that lists this relationship's owner.
    private func inverse(in object: Destination, _ owner: ManagedObject) -> (any AnyToManyStorage)? {
        owner.entity.inverseSlot(of: slot).map { object.toMany($0) }
    }

    // MARK: - AnyToManyStorage

    var linkedSinceSave: [ManagedObject] { joinChanges.linked.elements }
    var unlinkedSinceSave: [ManagedObject] { joinChanges.unlinked.elements }

    func link(_ object: ManagedObject) {
        guard let object = object as? Destination, let owner else { return }
        link(object, owner: owner)
    }

    func unlink(_ object: ManagedObject) {
        guard let object = object as? Destination, let owner else { return }
        unlink(object, owner: owner)
    }

    func recordJoinChange(_ object: ManagedObject, linked: Bool) {
        guard let object = object as? Destination else { return }
        joinChanges.record(object, linked: linked)
    }

    func forgetJoinChange(_ object: ManagedObject) {
        guard let object = object as? Destination else { return }
        joinChanges.forget(object)
    }

    func commitJoinChanges() { joinChanges = JoinChanges() }

    func refaultLinks() {
        members = nil
        liveScan = LiveMemberScan()
        pendingInserts = joinChanges.linked
        pendingRemovals = joinChanges.unlinked
    }
}
