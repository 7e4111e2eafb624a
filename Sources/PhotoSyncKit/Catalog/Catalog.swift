import Foundation

/// The photo catalog: the one object the commands talk to.
///
/// (Interface only; the GraphStore-backed implementation lands with the catalog work.)
public final class Catalog {
    /// Opens (creating if needed) the catalog at `path`. Throws `PhotoSyncError.catalog` when it cannot.
    public init(path: String) throws {}

    /// Fetches pages from the feed and saves each page in its own transaction.
    ///
    /// Records the run (failed ones included) for `status`. `progress` is called after each saved page.
    public func fetch(_ settings: FetchSettings, progress: (FetchSummary) -> Void) throws -> FetchSummary { FetchSummary() }

    public func list(photographer: String?, sort: ListSort, limit: Int?) throws -> [PhotoListing] { [] }
    public func photographers() throws -> [PhotographerListing] { [] }
    /// All-or-nothing: throws `PhotoSyncError.notFound` listing the missing ids and deletes nothing.
    public func delete(photoIDs: [String]) throws -> DeletionReport { DeletionReport(photoIDs: [], photographersRemoved: []) }
    public func delete(photographer: String) throws -> DeletionReport { DeletionReport(photoIDs: [], photographersRemoved: []) }
    public func status(recentRuns: Int) throws -> CatalogStatus { CatalogStatus(photos: 0, photographers: 0, runs: []) }
}
