import Foundation
import GraphStore

// The code samples of BatchOperations.md, compiled (see GettingStartedSamples.swift).

struct BatchSamples {
    final class Photographer: ManagedObject {
        @Attribute(.unique) var name = ""
        @ToMany(inverse: \Photo.$photographer, deleteRule: .nullify) var photos: [Photo]
    }

    final class Photo: ManagedObject {
        @Attribute(.unique) var unique = ""
        @Attribute var title = ""
        @Attribute var uploaded: Date? = nil
        @ToOne var photographer: Photographer?
    }

    func deleteAndUpdate(_ container: PersistentContainer) throws { // scaffold
        // doc: BatchOperations.md #1
        let context = container.newContext()
        let removed = try context.batchDelete(FetchRequest<Photo>(predicate: .isNil(\.$photographer)))
        print("\(removed.deleted(Photo.self).count) photos deleted")
        // end doc
        // doc: BatchOperations.md #2
        try context.batchUpdate(FetchRequest<Photo>(predicate: \.$uploaded == nil), .set(\.$title, to: "Untitled"))
        // end doc
    }
}
