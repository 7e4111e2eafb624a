import Synchronization

/// A context-independent identity for an object: safe to pass between tasks and contexts,
/// unlike the objects themselves.
///
/// A new object has a temporary ID until its first save; the save gives it a permanent one.
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    enum Key: Hashable, Sendable {
        case temporary(UInt64)
        case permanent(Int64)
    }

    public let entityName: String
    let key: Key

    public var isTemporary: Bool {
        if case .temporary = key { return true }
        return false
    }

    /// The store's row number, for a permanent ID.
    public var rowID: Int64? {
        if case .permanent(let rowID) = key { return rowID }
        return nil
    }

    public var description: String {
        switch key {
        case .temporary(let number): "\(entityName)/t\(number)"
        case .permanent(let rowID): "\(entityName)/\(rowID)"
        }
    }

    static func temporary(_ entityName: String) -> ObjectID {
        ObjectID(entityName: entityName, key: .temporary(nextTemporary.add(1, ordering: .relaxed).newValue))
    }

    @usableFromInline
    static func permanent(_ entityName: String, _ rowID: Int64) -> ObjectID {
        ObjectID(entityName: entityName, key: .permanent(rowID))
    }

    private static let nextTemporary = Atomic<UInt64>(0)

    /// Hashes the row number (or temporary number) only: hashing the entity name too would hash a
    /// string for every registered object; IDs of different entities with one number still compare unequal.
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool { lhs.key == rhs.key && lhs.entityName == rhs.entityName }
}
