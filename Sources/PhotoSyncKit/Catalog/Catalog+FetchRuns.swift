import Foundation
import GraphStore
import PhotoFeed

/// A fetch's run record (started, counted after each page, finished with its outcome) and its
/// notices about skipped items.
extension Catalog {
    /// Records a new run, once earlier runs still marked running are marked abandoned: the fetch
    /// lock is held, so none of them is running (it was killed, or the machine went down). Then
    /// deletes the change history older than `historyDays` before the run (`history_days`).
    func startRun(source: String, historyDays: Int) throws -> ObjectID {
        let run = try withContext { context in
            for stale in try context.fetch(FetchRequest<FetchRun>(predicate: \.$outcome == FetchRunRecord.Outcome.running.rawValue)) {
                stale.outcome = FetchRunRecord.Outcome.abandoned.rawValue
            }
            let run = context.insert(FetchRun.self)
            (run.started, run.source) = (Date(), source)
            try context.save()
            return run.objectID
        }
        try pruneHistory(before: Date().addingTimeInterval(-Double(historyDays) * 86_400))
        return run
    }

    /// The counts so far in the running run's record, and the API calls `calls` made with `key`:
    /// into `context`, which each page's save saves in its own transaction (see ``FetchJob``).
    static func record(_ id: ObjectID?, _ summary: FetchSummary, calls: [Date], key: String?, in context: ObjectContext) throws {
        if let key { insertCalls(calls, key: key, in: context) }
        if let id { context.update(id, FetchRun.counts(summary)) }
    }

    func finish(
        _ id: ObjectID?, _ outcome: FetchRunRecord.Outcome, _ summary: FetchSummary, error: String?, newestUpload: Date? = nil,
        at end: Date = Date()
    ) throws {
        guard let id else { return }
        try withContext { context in
            context.update(id, FetchRun.counts(summary) + [
                .set(\.$finished, to: end), .set(\.$outcome, to: outcome.rawValue), .set(\.$error, to: error.map(Secrets.redact)),
                .set(\.$newestUpload, to: newestUpload),
            ])
            try context.save()
        }
    }

    /// Skipped items and unusable values, the first three of each per page (not under `--quiet`).
    func reportSkipped(_ page: FeedPage) {
        for (items, what) in [(page.skipped, "skipped"), (page.notes, "kept without their upload time")] where !items.isEmpty {
            let shown = items.prefix(3).map(\.reason).joined(separator: "; ")
            let more = items.count > 3 ? " (and \(items.count - 3) more)" : ""
            Console.notice("page \(page.page): \(what) \(items.count) item(s): \(shown)\(more)")
        }
    }
}

extension MergePolicyChoice {
    var graphStorePolicy: MergePolicy {
        switch self {
        case .objectTrump: .objectTrump
        case .storeTrump: .storeTrump
        case .error: .error
        }
    }
}
