extension ObjectContext {
    /// The objects of `entity` this context inserted, changed or deleted and has not saved.
    func pendingObjects(of entity: EntityDescription) -> (changed: [ManagedObject], deleted: Set<ObjectIdentifier>) {
        guard !insertedObjects.isEmpty || !updatedObjects.isEmpty || !deletedObjects.isEmpty else { return ([], []) }
        let changed = (insertedObjects + updatedObjects).filter { $0.entity === entity && $0.state != .deleted }
        let deleted = deletedObjects.filter { $0.entity === entity }.map(ObjectIdentifier.init)
        return (changed, Set(deleted))
    }

    /// A fetch's result with the context's unsaved changes of the entity applied, as Core Data's
    /// `includesPendingChanges` does: deleted objects leave, new and changed ones are matched and
    /// ordered in memory by the store's rules (``PendingMatcher``), then the window applies.
    /// `stored` is the store's answer to the request without its window.
    func applyingPendingChanges<T: ManagedObject>(
        _ stored: [ManagedObject], _ request: FetchRequest<T>, changed: [ManagedObject], deleted: Set<ObjectIdentifier>
    ) -> [T] {
        let matcher = PendingMatcher(context: self)
        let pending = Set(changed.map(ObjectIdentifier.init))
        var objects = stored.filter { !deleted.contains(ObjectIdentifier($0)) && !pending.contains(ObjectIdentifier($0)) }
        let matched = changed.filter { object in request.predicate.map { matcher.matches($0.node, object) == true } ?? true }
        if !matched.isEmpty {
            objects += matched
            let sorts = request.sortBy.map(\.node)
            // Ties keep the store's order, then insertion order (`sort` is not documented stable).
            let position = Dictionary(uniqueKeysWithValues: objects.enumerated().map { (ObjectIdentifier($1), $0) })
            objects.sort { a, b in
                matcher.precedes(a, b, sorts) ?? (position[ObjectIdentifier(a)]! < position[ObjectIdentifier(b)]!)
            }
        }
        let start = min(request.offset ?? 0, objects.count)
        let end = request.limit.map { min(start + $0, objects.count) } ?? objects.count
        return objects[start..<end].map { $0 as! T }
    }

    /// ``count(_:)`` with pending changes, without building objects: the store's count, less the
    /// stored rows of pending objects that match there, plus the pending objects that match in memory.
    func countIncludingPendingChanges(_ query: StoreQuery, changed: [ManagedObject], deleted: [ManagedObject]) throws -> Int {
        let rowIDs = (changed + deleted).compactMap(\.rowID).map(StoredValue.integer)
        var pendingRows = query
        pendingRows.predicate = .and([query.predicate ?? .constant(true), .isIn(column: "id", rowIDs)])
        let stored = try read { reader in try reader.count(query) - (rowIDs.isEmpty ? 0 : reader.count(pendingRows)) }
        let matcher = PendingMatcher(context: self)
        return stored + changed.filter { object in query.predicate.map { matcher.matches($0, object) == true } ?? true }.count
    }
}
