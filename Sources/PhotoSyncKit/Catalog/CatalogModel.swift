import GraphStore

/// The catalog's model. Bump `version` with every entity change (GraphStore migrates older files).
/// Version 7 added ``SourceBackfill``, ``SearchWindow``, `FetchRun.backfillPages` and `.windowsOverCap` (issue 25).
enum CatalogModel {
    static func make() throws(GraphStoreError) -> ManagedObjectModel {
        try ManagedObjectModel(
            version: 7,
            entities: [Photo.self, Photographer.self, FetchRun.self, ExcludedPhoto.self, ExcludedPhotographer.self, APICall.self,
                       SourceBackfill.self, SearchWindow.self])
    }
}
