import GraphStore

/// The catalog's model. Bump `version` with every entity change (GraphStore migrates older files).
/// 7: `PhotoFile`, a new table: older catalogs gain it, empty, at their next writable open.
enum CatalogModel {
    static func make() throws(GraphStoreError) -> ManagedObjectModel {
        try ManagedObjectModel(
            version: 7,
            entities: [Photo.self, Photographer.self, FetchRun.self, ExcludedPhoto.self, ExcludedPhotographer.self, APICall.self, PhotoFile.self])
    }
}
