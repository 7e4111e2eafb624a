import Foundation
import GraphStore

// The code samples of GettingStarted.md, compiled. `DocSamplesTests` checks that each region
// between `// doc:` and `// end doc` is its sample, line for line; `// scaffold` lines are not.

struct GettingStartedModelSample {
    // doc: GettingStarted.md #1
    final class Photographer: ManagedObject {
        @Attribute(.unique) var name = ""
        @ToMany(inverse: \Photo.$photographer, deleteRule: .nullify) var photos: [Photo]
    }

    final class Photo: ManagedObject {
        @Attribute(.unique) var unique = ""
        @Attribute(.indexed) var title = ""
        @Attribute var uploaded: Date? = nil          // optional: NULL allowed
        @ToOne var photographer: Photographer?
    }

    func open() throws { // scaffold
        let model = try ManagedObjectModel(version: 1, entities: [Photographer.self, Photo.self])
        let container = try PersistentContainer(model: model, location: .file("catalog.sqlite"))
    // end doc
        try saveAndFetch(container)
    }

    func saveAndFetch(_ container: PersistentContainer) throws { // scaffold
        // doc: GettingStarted.md #3
        let context = container.newContext(mergePolicy: .objectTrump)
        let photo = context.insert(Photo.self)
        photo.unique = "5341"
        photo.title = "Harbour"
        try context.save()

        let harbours = try context.fetch(FetchRequest<Photo>(
            predicate: .contains(\.$title, "harbour", caseInsensitive: true) && .whose(\.$photographer, \.$name == "Ana"),
            sortBy: [.descending(\.$uploaded)], limit: 20))
        // end doc
        _ = harbours
    }
}

struct GettingStartedHooksSample {
    final class Photographer: ManagedObject {
        @ToMany(inverse: \Photo.$photographer, deleteRule: .nullify) var photos: [Photo]
    }

    // doc: GettingStarted.md #2
    final class Photo: ManagedObject {
        @Attribute(.unique) var unique = ""
        @Attribute var uploaded: Date? = nil
        @Attribute(.transient) var thumbnail = Data()  // memory only
        @ToOne var photographer: Photographer?

        override func awakeFromInsert() { uploaded = .now }
        override func validateForSave() throws {
            if unique.isEmpty { throw ValidationFailure("unique must not be empty") }
        }
        /// A photographer left without photos goes too, in the same save.
        override func prepareForDeletion() {
            if let photographer, !photographer.$photos.hasLiveMember(besides: self) {
                context?.delete(photographer)
            }
        }
    }
    // end doc
}
