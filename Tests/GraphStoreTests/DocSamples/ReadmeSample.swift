import GraphStore

// The code sample of GraphStore's README, compiled (see GettingStartedSamples.swift).

struct ReadmeSample {
    // doc: README.md #1
    final class Photographer: ManagedObject {
        @Attribute(.unique) var name = ""
        @ToMany(inverse: \Photo.$photographer, deleteRule: .nullify) var photos: [Photo]
    }

    final class Photo: ManagedObject {
        @Attribute(.unique) var unique = ""
        @Attribute var title = ""
        @ToOne var photographer: Photographer?
    }

    func run() throws { // scaffold
        let model = try ManagedObjectModel(version: 1, entities: [Photographer.self, Photo.self])
        let container = try PersistentContainer(model: model, location: .file("catalog.sqlite"))
        let context = container.newContext(mergePolicy: .objectTrump)
        let photo = context.insert(Photo.self)
        photo.unique = "5341"
        try context.save()
    // end doc
    }
}
