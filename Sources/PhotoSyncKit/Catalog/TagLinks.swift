import Foundation
import GraphStore
import PhotoFeed

/// Keeps each photo's ``Photo/tags`` pairs (GraphStore's many-to-many) equal to its stored
/// `tagList`. Import records set to-ones only, so after each page's import save the page's photos
/// are linked in a transaction of their own. A run killed between the two leaves pairs behind
/// `tagList`: the next fetch that meets the photo links them (pairs are compared, not trusted).
enum TagLinks {
    /// Links the photos of `ids` (stored ones; others are ignored) to the tags their `tagList` names.
    static func sync(_ ids: [String], in container: PersistentContainer) throws {
        guard !ids.isEmpty else { return }
        let context = container.newContext(mergePolicy: .objectTrump)
        let photos = try context.fetch(FetchRequest<Photo>(predicate: .isIn(\.$unique, ids) && \.$tagList != nil))
        guard !photos.isEmpty else { return }
        let wanted = Dictionary(photos.map { ($0.objectID, Set(Catalog.tagNames($0.tagList ?? ""))) }, uniquingKeysWith: { a, _ in a })
        let names = Array(Set(wanted.values.joined()))
        var tags = Dictionary(try context.fetch(FetchRequest<Tag>(predicate: .isIn(\.$name, names))).map { ($0.name, $0) },
                              uniquingKeysWith: { a, _ in a })
        // Photos with no pair yet (all of a first import) are linked without reading their pairs.
        let paired = Set(try context.fetchColumns(
            FetchRequest<Photo>(predicate: .isIn(\.$unique, ids) && .any(\.$tags, \Tag.$name != "")), [\.$unique]).values(\.$unique))
        let tag = { (name: String) -> Tag in
            if let tag = tags[name] { return tag }
            let tag = context.insert(Tag.self)
            (tag.name, tags[name]) = (name, tag)
            return tag
        }
        var changed = false
        for photo in photos {
            let names = wanted[photo.objectID] ?? []
            if !paired.contains(photo.unique) {
                for name in names.sorted() { photo.$tags.insert(tag(name)) }
                changed = changed || !names.isEmpty
            } else if Set(photo.tags.map(\.name)) != names {
                photo.tags = names.sorted().map(tag)
                changed = true
            }
        }
        if changed { try context.save() }
    }
}
