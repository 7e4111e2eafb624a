import GraphStore

// The code samples of Relationships.md, compiled (see GettingStartedSamples.swift).

struct RelationshipSamples {
    // doc: Relationships.md #1
    final class Album: ManagedObject {
        @Attribute(.unique) var name = ""
        @ToMany var photos: [Photo]                                    // the other side: names no inverse
    }

    final class Photo: ManagedObject {
        @Attribute(.unique) var unique = ""
        @Attribute var title = ""
        @ToMany(inverse: \Album.$photos, deleteRule: .nullify) var albums: [Album]  // names the pair
    }

    func link(_ photo: Photo, _ holidays: Album, _ context: ObjectContext) throws { // scaffold
        photo.$albums.insert(holidays)          // or holidays.$photos.insert(photo), or photo.albums = [...]
        let linked = holidays.photos.contains { $0 === photo }   // true at once, before any save
        let withBridges = try context.fetch(FetchRequest<Album>(predicate: .any(\.$photos, .contains(\.$title, "bridge"))))
    // end doc
        _ = (linked, withBridges)
    }
}
