import GraphStore

/// A normalized Flickr tag (see `TagRule`), many-to-many with the photos that carry it (issue 25):
/// `list --tag` finds photos through the pair's join table.
final class Tag: ManagedObject {
    @Attribute(.unique) var name = ""
    @ToMany var photos: [Photo]
}
