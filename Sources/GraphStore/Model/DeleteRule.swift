/// What deleting an object does to the objects its relationship points at (Core Data's `NSDeleteRule`).
public enum DeleteRule: String, Sendable, CaseIterable, Codable {
    /// Nothing: the destinations keep pointing at the deleted object. The store's foreign key then
    /// fails the save unless the caller fixes the destinations first. On a many-to-many it acts as
    /// `nullify`: the deleted object's join rows always go with it.
    case noAction
    /// The destinations' inverse is cleared (to-one set to nil, to-many loses the object).
    case nullify
    /// The destinations are deleted too (their own rules and `prepareForDeletion` run).
    case cascade
    /// The delete fails while the relationship is non-empty.
    case deny
}
