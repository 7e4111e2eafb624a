import Foundation
import GraphStore
import PhotoFeed

/// What the pages a fetch saved held, over both its walks (what is new, then the catch up): the
/// counts its summary reports beside the import session's, and where in the feed it got to.
struct WalkTally {
    /// A photo's place in the feed: its id and upload time.
    struct Position: Equatable {
        var id: String
        var uploaded: Date?
    }

    var pages = 0
    var backfillPages = 0
    var received = 0
    var skipped = 0
    var excluded = 0
    var datesUnknown = 0
    /// Search windows one second wide still over the cap (see ``UploadWindow``).
    var windowsOverCap = 0
    /// The newest upload among the photos received (a search's next mark).
    var newest: Date?
    /// The last photo of the last page saved, in feed order.
    var last: Position?

    mutating func add(_ page: PreparedPage, backfill: Bool) {
        pages += 1
        if backfill { backfillPages += 1 }
        received += page.page.photos.count + page.page.skipped.count
        (skipped, excluded, datesUnknown) = (skipped + page.page.skipped.count, excluded + page.excluded, datesUnknown + page.page.notes.count)
        newest = [newest, page.page.photos.lazy.compactMap(\.uploaded).max()].compactMap { $0 }.max()
        if let photo = page.page.photos.last { last = Position(id: photo.id, uploaded: photo.uploaded) }
    }

    /// The counts so far; `pending`: a save not yet committed, counted too.
    func summary(_ session: ImportSession, pending: ImportResult? = nil) -> FetchSummary {
        var summary = FetchSummary(session: session, pending: pending, pages: pages, received: received, skipped: skipped, excluded: excluded)
        (summary.datesUnknown, summary.backfillPages, summary.windowsOverCap) = (datesUnknown, backfillPages, windowsOverCap)
        return summary
    }
}
