import Foundation
import GraphStore

// The code samples of ContextsAndConcurrency.md, compiled (see GettingStartedSamples.swift).

struct ContextSamples {
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

    final class Book: ManagedObject {
        @Attribute(.unique) var isbn = ""
    }

    func saveAndFetch(_ container: PersistentContainer) throws { // scaffold
        // doc: ContextsAndConcurrency.md #1
        let context = container.newContext(mergePolicy: .objectTrump)
        let photo = context.insert(Photo.self)
        photo.unique = "5341"
        try context.save()
        let bridges = try context.fetch(FetchRequest<Photo>(
            predicate: .contains(\.$title, "bridge", caseInsensitive: true) && .whose(\.$photographer, \.$name == "Ana"),
            sortBy: [.descending(\.$uploaded)], limit: 20).prefetching(\.$photographer))
        // end doc
        _ = bridges
    }

    func resolveByHand(_ context: ObjectContext) throws { // scaffold
        // doc: ContextsAndConcurrency.md #2
        do { try context.save() } catch GraphStoreError.mergeConflicts(let conflicts) {
            for conflict in conflicts { try context.refresh(try context.existingObject(with: conflict.object, as: Book.self), mergeChanges: true) }
            try context.save()
        }
        // end doc
    }

    func readColumns(_ context: ObjectContext, incoming: [String]) throws { // scaffold
        // doc: ContextsAndConcurrency.md #3
        let photos = try context.fetchColumns(FetchRequest<Photo>(predicate: .isIn(\.$unique, incoming)),
                                              [\.$unique, \.$title, \.$photographer])
        let titles = try photos.values(\.$title)                   // [String], in fetch order
        let photographers = try photos.destinations(\.$photographer) // [ObjectID?]
        // end doc
        _ = (titles, photographers)
    }
}
