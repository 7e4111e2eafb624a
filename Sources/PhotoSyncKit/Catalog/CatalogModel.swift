import GraphStore

/// The catalog's model. Bump `version` with every entity change (GraphStore migrates older files).
/// 7: `PhotoFile` (issue 27). 8: ``SourceBackfill``, ``SearchWindow``, `FetchRun.backfillPages` and
/// `.windowsOverCap`, ``License``, ``Tag`` and the photos' metadata (see ``PhotoMetadata``) (issue 25),
/// and `Photo.titleKey`, the title's sort key (issue 22). Older catalogs gain them, empty, 0 or nil,
/// at their next writable open; that open also fills `titleKey`. 9: indexes on `Photo.titleKey` and
/// (`whoTook`, `uploaded`) in place of `whoTook`'s (issue 28); an older catalog gains them at its
/// next writable open.
enum CatalogModel {
    static func make() throws(GraphStoreError) -> ManagedObjectModel {
        try ManagedObjectModel(
            version: 9,
            entities: [Photo.self, Photographer.self, FetchRun.self, ExcludedPhoto.self, ExcludedPhotographer.self, APICall.self,
                       PhotoFile.self, SourceBackfill.self, SearchWindow.self, License.self, Tag.self])
    }
}
