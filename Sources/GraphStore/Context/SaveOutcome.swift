/// What a committed save decided, applied to the objects afterwards (never before the commit,
/// so a failed save leaves them untouched).
struct SaveOutcome {
    /// The final destination of one to-one: an object, or a stored row not loaded as one.
    enum Destination {
        case object(ManagedObject)
        case row(Int64?)
    }

    struct Saved {
        let object: ManagedObject
        let rowID: Int64
        /// Stored attribute values after merging, when they differ from the object's own.
        var attributes: [StoredValue]?
        /// To-one destinations after merging, when they differ from the object's own.
        var destinations: [Destination]?
        /// The object took over an existing row's identity.
        var adopted = false
    }

    var saved: [Saved] = []
    /// Duplicates discarded in favour of a survivor.
    var folds: [(discarded: ManagedObject, survivor: ManagedObject)] = []
    var changes = ChangeSet()
    /// Owners deleted because the save left their `deletesOwnerWhenEmpty` to-many empty.
    var emptiedOwners: [ObjectID] = []
    /// Every discarded duplicate → the object that finally represents its row.
    var replacements: [ObjectIdentifier: ManagedObject] = [:]

    func final(_ object: ManagedObject) -> ManagedObject {
        replacements[ObjectIdentifier(object)] ?? object
    }
}
