extension ObjectContext {
    /// Lets go of registered objects that have no pending changes and that nothing but this context
    /// holds (no variable of the caller, no relationship of another object): Core Data holds its
    /// registered objects weakly. Runs at a fetch once the registry has doubled since the last pass,
    /// so its cost stays proportional to what was loaded.
    ///
    /// Not a weak table: a weak reference gives every object a side table and puts all its retains
    /// on the runtime's slow path. An object let go is loaded again, as a new instance, when next
    /// fetched; nobody could tell, as nobody held it.
    func releaseUnusedObjects() {
        guard !retainsRegisteredObjects, registered.count >= releaseThreshold else { return }
        var unused: [ObjectID] = []
        // An index loop, not `indices`: that would hold the storage and make every object look shared.
        var index = registered.startIndex
        while index != registered.endIndex {
            if registered.values[index].state == .clean, isKnownUniquelyReferenced(&registered.values[index]) {
                unused.append(registered.keys[index])
            }
            registered.formIndex(after: &index)
        }
        for id in unused { registered[id] = nil }
        releaseThreshold = max(Self.minimumReleaseThreshold, registered.count * 2)
    }

    static let minimumReleaseThreshold = 256
}
