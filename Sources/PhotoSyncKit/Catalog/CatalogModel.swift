import GraphStore

/// The catalog's model. Bump `version` with every entity change (GraphStore migrates older files).
/// 7: `PhotoFile`, a new table: older catalogs gain it, empty, at their next writable open.
/// 8: `Photo.titleKey`, the title's sort key: older catalogs gain it, filled at that open.
enum CatalogModel {
    static func make() throws(GraphStoreError) -> ManagedObjectModel {
        try ManagedObjectModel(
            version: 8,
            entities: [Photo.self, Photographer.self, FetchRun.self, ExcludedPhoto.self, ExcludedPhotographer.self, APICall.self, PhotoFile.self])
    }
}
