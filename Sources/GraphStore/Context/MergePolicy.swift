/// How a save resolves unique-constraint conflicts, between the context's objects and stored rows
/// and among the context's own new objects.
///
/// | policy | against a stored row | among new objects of one save |
/// |---|---|---|
/// | `error` | the save throws every conflict; nothing is written | same |
/// | `objectTrump` | the row keeps its identity and takes the values the object assigned (unassigned ones stay); to-many: union; to-one: the new value when assigned | the last inserted survives; attributes only earlier duplicates assigned are kept |
/// | `storeTrump` | the row keeps its values; the object is folded into it; new relationships are still attached (to-many union; to-one only where the row has none) | the first inserted survives; later duplicates only fill what it left unassigned |
///
/// The surviving object is the one the context already holds for the row if any; otherwise the
/// inserted object itself takes over the row's identity, so references to it stay valid.
///
/// Conflicts are judged on the save's final state: a stored object that changes a unique key gives
/// up the old one in the same save (renames, chains and swaps save in any assignment order). A new
/// object taking an updated object's new key is resolved as against a stored row (the updated
/// object survives); an updated object's new key meeting a stored row or another updated object
/// is a conflict under every policy, since resolving it would delete a stored row.
///
/// The same policy resolves rows another context changed since this one read them (optimistic
/// locking): `error` throws ``GraphStoreError/mergeConflicts(_:)``; `objectTrump` keeps, per
/// column, what this context changed and takes the store's other values; `storeTrump` takes,
/// per column, what the store changed and writes this context's other changes. Updating a row
/// deleted elsewhere is a conflict under every policy.
public enum MergePolicy: Sendable, Equatable {
    case error
    case objectTrump
    case storeTrump
}
