/// What one save changed, by entity: the object IDs inserted, updated and deleted.
///
/// Objects merged into stored rows count as updated only when a stored value changed. Stored objects
/// whose many-to-many pairs the save changed (a join row inserted or deleted) count as updated.
public struct ChangeSet: Sendable, Equatable {
    public internal(set) var inserted: [String: Set<ObjectID>] = [:]
    public internal(set) var updated: [String: Set<ObjectID>] = [:]
    public internal(set) var deleted: [String: Set<ObjectID>] = [:]

    public init() {}

    public func inserted(_ type: ManagedObject.Type) -> Set<ObjectID> { inserted[type.cachedEntityName] ?? [] }
    public func updated(_ type: ManagedObject.Type) -> Set<ObjectID> { updated[type.cachedEntityName] ?? [] }
    public func deleted(_ type: ManagedObject.Type) -> Set<ObjectID> { deleted[type.cachedEntityName] ?? [] }

    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}
