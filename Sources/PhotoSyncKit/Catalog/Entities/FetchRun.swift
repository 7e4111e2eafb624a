import Foundation
import GraphStore

/// One `photosync fetch` run, recorded whatever its outcome, for `status`.
final class FetchRun: ManagedObject {
    /// Bookkeeping, not catalog content: `changes` never shows it, so history does not keep it.
    override class var keepsHistory: Bool { false }
    @Attribute(.indexed) var started = Date(timeIntervalSince1970: 0)
    /// What was fetched (endpoint, method and query: see ``FeedSource/identity``): each source keeps its own history.
    @Attribute(.indexed) var source = ""
    @Attribute var finished: Date? = nil
    @Attribute var outcome = FetchRunRecord.Outcome.running.rawValue
    @Attribute var pages = 0
    @Attribute var received = 0
    @Attribute var inserted = 0
    @Attribute var updated = 0
    @Attribute var unchanged = 0
    @Attribute var repeated = 0
    @Attribute var skipped = 0
    @Attribute var datesUnknown = 0
    @Attribute var excluded = 0
    @Attribute var photographersInserted = 0
    @Attribute var photographersRemoved = 0
    @Attribute var photographersRenamed = 0
    @Attribute var morePages = 0
    @Attribute var pagesSkippedKnown = 0
    @Attribute var gap = false
    /// Pages fetched to finish an earlier walk a page limit cut (see ``Backfill``).
    @Attribute var backfillPages = 0
    /// Search windows one second wide still over Flickr's 4,000 results (see ``UploadWindow``).
    @Attribute var windowsOverCap = 0
    @Attribute var error: String? = nil
    /// The newest upload time among the photos this run received: a search resumes from the newest
    /// of its completed runs (see ``SourceHistory/searchFrom``).
    @Attribute var newestUpload: Date? = nil

    func record(_ summary: FetchSummary) {
        pages = summary.pages
        received = summary.received
        inserted = summary.inserted
        updated = summary.updated
        unchanged = summary.unchanged
        repeated = summary.repeated
        skipped = summary.skipped
        datesUnknown = summary.datesUnknown
        excluded = summary.excluded
        photographersInserted = summary.photographersInserted
        photographersRemoved = summary.photographersRemoved
        photographersRenamed = summary.photographersRenamed
        morePages = summary.morePages
        pagesSkippedKnown = summary.pagesSkippedKnown
        gap = summary.gap
        backfillPages = summary.backfillPages
        windowsOverCap = summary.windowsOverCap
    }

    var summary: FetchSummary {
        var summary = FetchSummary()
        summary.pages = pages
        summary.received = received
        summary.inserted = inserted
        summary.updated = updated
        summary.unchanged = unchanged
        summary.repeated = repeated
        summary.skipped = skipped
        summary.datesUnknown = datesUnknown
        summary.excluded = excluded
        summary.photographersInserted = photographersInserted
        summary.photographersRemoved = photographersRemoved
        summary.photographersRenamed = photographersRenamed
        summary.morePages = morePages
        summary.pagesSkippedKnown = pagesSkippedKnown
        summary.gap = gap
        summary.backfillPages = backfillPages
        summary.windowsOverCap = windowsOverCap
        return summary
    }
}
