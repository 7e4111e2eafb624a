import GraphStore

/// The catalog's model. Bump `version` with every entity change (GraphStore migrates older files).
/// 7: `PhotoFile` (issue 27). 8: ``SourceBackfill``, ``SearchWindow``, `FetchRun.backfillPages` and
/// `.windowsOverCap` (issue 25), and `Photo.titleKey`, the title's sort key (issue 22). Older
/// catalogs gain them, empty or 0, at their next writable open; that open also fills `titleKey`.
enum CatalogModel {
    static func make() throws(GraphStoreError) -> ManagedObjectModel {
        try ManagedObjectModel(
            version: 8,
            entities: [Photo.self, Photographer.self, FetchRun.self, ExcludedPhoto.self, ExcludedPhotographer.self, APICall.self,
                       PhotoFile.self, SourceBackfill.self, SearchWindow.self])
    }
}
