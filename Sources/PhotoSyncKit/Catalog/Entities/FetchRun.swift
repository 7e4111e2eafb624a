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

    /// The counts of `summary`, as a row update (a page's save writes them without loading the run).
    static func counts(_ summary: FetchSummary) -> [AttributeAssignment<FetchRun>] {
        [
            .set(\.$pages, to: summary.pages),
            .set(\.$received, to: summary.received),
            .set(\.$inserted, to: summary.inserted),
            .set(\.$updated, to: summary.updated),
            .set(\.$unchanged, to: summary.unchanged),
            .set(\.$repeated, to: summary.repeated),
            .set(\.$skipped, to: summary.skipped),
            .set(\.$datesUnknown, to: summary.datesUnknown),
            .set(\.$excluded, to: summary.excluded),
            .set(\.$photographersInserted, to: summary.photographersInserted),
            .set(\.$photographersRemoved, to: summary.photographersRemoved),
            .set(\.$photographersRenamed, to: summary.photographersRenamed),
            .set(\.$morePages, to: summary.morePages),
            .set(\.$pagesSkippedKnown, to: summary.pagesSkippedKnown),
            .set(\.$gap, to: summary.gap),
            .set(\.$backfillPages, to: summary.backfillPages),
            .set(\.$windowsOverCap, to: summary.windowsOverCap),
        ]
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
