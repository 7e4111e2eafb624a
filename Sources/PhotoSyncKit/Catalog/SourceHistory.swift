import Foundation
import GraphStore

/// What earlier fetches of one source (see ``FeedSource/identity``) left: whether the last one
/// completed (an incremental fetch may then stop at known photos) and when one last succeeded
/// (the reference for the gap warning).
struct SourceHistory {
    let lastRunCompleted: Bool
    let lastSuccess: Date?
    /// The newest upload any completed run of the source received: the high-water mark.
    let mark: Date?

    /// How far before its mark a search starts again: Flickr's search index can lag behind uploads,
    /// and the stop at a page of known photos keeps the overlap cheap.
    static let searchOverlap: TimeInterval = 86_400

    /// `min_upload_date` for a search of this source: its mark minus the overlap (nil: no mark yet).
    var searchFrom: Date? { mark.map { $0.addingTimeInterval(-Self.searchOverlap) } }

    /// Read before this fetch records its own run.
    init(_ source: String, in context: ObjectContext) throws {
        let runs = FetchRequest<FetchRun>(predicate: \.$source == source, sortBy: [.descending(\.$started)], limit: 1)
        let succeeded = FetchRunRecord.Outcome.succeeded.rawValue
        lastRunCompleted = try context.fetch(runs).first?.outcome == succeeded
        let successes = FetchRequest<FetchRun>(predicate: \.$source == source && \.$outcome == succeeded,
                                               sortBy: [.descending(\.$started)], limit: 1)
        lastSuccess = try context.fetch(successes).first.map { $0.finished ?? $0.started }
        let marks = FetchRequest<FetchRun>(predicate: \.$source == source && \.$outcome == succeeded && \.$newestUpload != nil,
                                           sortBy: [.descending(\.$newestUpload)], limit: 1)
        mark = try context.fetch(marks).first?.newestUpload
    }

    /// The warning for a fetch that met none of the photos earlier runs stored, saying what happens
    /// next: when the page limit cut the walk (`catchingUp`), the next fetches finish it, `limit`
    /// pages at a time; when the feed ended first, what it no longer serves is out of reach.
    func gapWarning(_ summary: FetchSummary, catchingUp: Bool, limit: Int, now: Date = Date()) -> String {
        let since = lastSuccess.map { Self.duration(now.timeIntervalSince($0)) } ?? "an unknown time"
        let head = "possible gap: none of the \(summary.received) photo(s) fetched was in the catalog since the last successful "
            + "fetch (\(since) ago)"
        guard catchingUp else {
            return head + "; the feed ended before reaching them, so photos it no longer serves were missed: fetch more often"
        }
        return head + "; the next fetches catch up on the rest, up to \(limit) page(s) each after what is new: "
            + "raise --pages or max_pages, or fetch more often, to catch up sooner"
    }

    /// "3 d 4 h", "2 h 5 min", "12 min", "40 s".
    static func duration(_ seconds: TimeInterval) -> String {
        let total = max(0, Int(seconds))
        let (days, hours, minutes) = (total / 86_400, total % 86_400 / 3_600, total % 3_600 / 60)
        if days > 0 { return "\(days) d \(hours) h" }
        if hours > 0 { return "\(hours) h \(minutes) min" }
        return minutes > 0 ? "\(minutes) min" : "\(total) s"
    }
}
