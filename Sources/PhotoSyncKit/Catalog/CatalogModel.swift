import GraphStore

/// The catalog's model. Bump `version` with every entity change (GraphStore migrates older files).
/// 7: `PhotoFile` (issue 27). 8: ``SourceBackfill``, ``SearchWindow``, `FetchRun.backfillPages` and
/// `.windowsOverCap`, ``License``, ``Tag`` and the photos' metadata (see ``PhotoMetadata``) (issue 25),
/// and `Photo.titleKey`, the title's sort key (issue 22). 9: `Photographer.ownerID` indexed,
/// `ExcludedPhotographer.ownerID` and `FetchRun.photographersRenamed`, for renamed accounts (issue 25);
/// `Photo.gone`, `.goneReason` and `.checked`, what `recheck` finds (issue 26); an index on
/// (`whoTook`, `uploaded`) in place of `whoTook`'s (issue 28). 10: an index on `titleKey`, built
/// after a first import (issues 24, 28). Older catalogs gain them, empty, 0 or nil, at their next
/// writable open; that open also fills `titleKey`.
enum CatalogModel {
    static func make() throws(GraphStoreError) -> ManagedObjectModel {
        try ManagedObjectModel(
            version: 10,
            entities: [Photo.self, Photographer.self, FetchRun.self, ExcludedPhoto.self, ExcludedPhotographer.self, APICall.self,
                       PhotoFile.self, SourceBackfill.self, SearchWindow.self, License.self, Tag.self])
    }
}
