import GraphStore

/// Whoever took photos, keyed by display name; keeps the feed's owner id too (names are neither
/// unique nor stable upstream). A photographer lives only while they have photos: deleting the
/// last one deletes them (`Photo.prepareForDeletion`), and so does a fetch that moves their last
/// photo to someone else (`deletesOwnerWhenEmpty`, in the same transaction).
final class Photographer: ManagedObject {
    @Attribute(.unique, .preservedOnDeletion) var name = ""
    /// The account's NSID: it never changes upstream, while display names do (``AccountRenames``).
    @Attribute(.indexed) var ownerID = ""
    @ToMany(inverse: \Photo.$whoTook, deleteRule: .cascade, deletesOwnerWhenEmpty: true) var photos: [Photo]
}
