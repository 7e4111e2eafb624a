import GraphStore

/// Whoever took photos, keyed by display name; keeps the feed's owner id too (names are neither
/// unique nor stable upstream).
final class Photographer: ManagedObject {
    @Attribute(.unique) var name = ""
    @Attribute var ownerID = ""
    @ToMany(inverse: \Photo.$whoTook, deleteRule: .cascade) var photos: [Photo]
}
