import GraphStore

/// The catalog's model. Bump `version` with every entity change (GraphStore migrates older files).
enum CatalogModel {
    static func make() throws(GraphStoreError) -> ManagedObjectModel {
        try ManagedObjectModel(
            version: 6,
            entities: [Photo.self, Photographer.self, FetchRun.self, ExcludedPhoto.self, ExcludedPhotographer.self, APICall.self])
    }
}
