extension ObjectContext {
    /// The objects of `entity` this context inserted, changed or deleted and has not saved.
    func pendingObjects(of entity: EntityDescription) -> (changed: [ManagedObject], deleted: Set<ObjectIdentifier>) {
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
            objects.sort { matcher.precedes($0, $1, sorts) }
        }
        let start = min(request.offset ?? 0, objects.count)
        let end = request.limit.map { min(start + $0, objects.count) } ?? objects.count
        return objects[start..<end].map { $0 as! T }
    }
}
