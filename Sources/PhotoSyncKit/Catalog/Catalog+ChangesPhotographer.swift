import GraphStore

/// `changes --photographer NAME`: which photo changes are about NAME's photos. A change that moved
/// a photo between photographers names both; a delete's tombstone names its photographer. Any
/// other photo change (an insert, an edit of the title, a photo gone or returned) names none, so
/// its photographer is the one the photo had then: the `before` of its next change that names one
/// in the listing, else the photo's photographer in the catalog now.
extension Catalog {
    func changes(_ changes: [CatalogChange], about name: String) throws -> [CatalogChange] {
        var owner = try photographers(ofPhotos: Set(changes.filter(\.isPhotoChangeNamingNoPhotographer).map(\.id)))
        var keep = [Bool](repeating: false, count: changes.count)
        for (index, change) in changes.enumerated().reversed() {
            if change.concerns(photographer: name) {
                keep[index] = true
            } else if change.isPhotoChangeNamingNoPhotographer {
                keep[index] = owner[change.id] == name
            }
            if change.entity == "photo", let field = change.fields?["photographer"] ?? nil { owner[change.id] = field.before }
        }
        return changes.indices.filter { keep[$0] }.map { changes[$0] }
    }

    /// The photographer's name of each photo of `ids` in the catalog (one query per 500 photos).
    private func photographers(ofPhotos ids: Set<String>) throws -> [String: String] {
        let ids = Array(ids)
        return try withContext { context in
            var names: [String: String] = [:]
            for start in stride(from: 0, to: ids.count, by: 500) {
                let chunk = Array(ids[start..<min(start + 500, ids.count)])
                for photo in try context.fetch(FetchRequest<Photo>(predicate: .isIn(\.$unique, chunk))) { names[photo.unique] = photo.whoTook?.name }
            }
            return names
        }
    }
}

extension CatalogChange {
    /// A photo's insert or update (gone and returned too) whose fields do not name its photographer.
    var isPhotoChangeNamingNoPhotographer: Bool {
        entity == "photo" && [.inserted, .updated, .gone, .returned].contains(kind) && (fields?["photographer"] ?? nil) == nil
    }
}
