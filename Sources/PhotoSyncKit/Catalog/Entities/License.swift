import GraphStore

/// A license's name and URL by Flickr's id, from `flickr.photos.licenses.getInfo` (issue 25):
/// asked once, and again only when a photo brings an id not here.
final class License: ManagedObject {
    @Attribute(.unique) var number = ""
    @Attribute var name = ""
    @Attribute var url = ""
}
