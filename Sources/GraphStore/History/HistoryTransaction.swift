#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One saved transaction of persistent history (Core Data's `NSPersistentHistoryTransaction`).
public struct HistoryTransaction: Sendable, Equatable {
    public let token: HistoryToken
    public let date: Date
    /// The saving context's or import session's `transactionAuthor`, else the container's.
    public let author: String?
    /// The saving context's name, if it had one.
    public let contextName: String?
    /// In the order they were recorded.
    public var changes: [HistoryChange]
}

/// What one transaction did to one object (Core Data's `NSPersistentHistoryChange`).
public struct HistoryChange: Sendable, Equatable {
    public enum Kind: Int, Sendable {
        case inserted = 1, updated = 2, deleted = 3
    }

    /// A tracked attribute's value before and after an update.
    public struct ValueChange: Sendable, Equatable {
        public let before: StoredValue
        public let after: StoredValue
    }

    public let entity: String
    /// The object's single-attribute unique key (after the change, for an update), or its row id
    /// when the entity has none.
    public let key: StoredValue
    public let kind: Kind
    /// For an update: the attributes and to-ones whose stored values changed.
    public let changedAttributes: [String]
    /// For an update: before and after of each changed attribute marked ``AttributeOption/tracked``
    /// (a to-one as its destination's unique key), and of a changed unique key.
    public let values: [String: ValueChange]
    /// For a delete: the attributes marked ``AttributeOption/preservedOnDeletion``, and the key.
    public let tombstone: [String: StoredValue]
}

/// What ``PersistentContainer/history(after:author:entity:limit:)`` read: the transactions, and
/// the token to read after next time (the newest in the store then, whether or not it matched).
public struct PersistentHistory: Sendable {
    public let transactions: [HistoryTransaction]
    public let token: HistoryToken
}
