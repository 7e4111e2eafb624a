import GraphStore

/// The catalog's model. Bump `version` with every entity change (GraphStore migrates older files).
/// Version 7 added ``SourceBackfill`` and `FetchRun.backfillPages` (issue 25).
enum CatalogModel {
    static func make() throws(GraphStoreError) -> ManagedObjectModel {
        try ManagedObjectModel(
            version: 7,
            entities: [Photo.self, Photographer.self, FetchRun.self, ExcludedPhoto.self, ExcludedPhotographer.self, APICall.self,
                       SourceBackfill.self])
    }
}
