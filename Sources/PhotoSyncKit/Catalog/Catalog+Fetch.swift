import Foundation
import GraphStore
import PhotoFeed

extension Catalog {
    /// Fetches pages 1...min(requested or max pages, pages the feed reports) as one import: every
    /// page is judged by the merge policy against the catalog as it stood when the fetch began (a
    /// photo seen again is a repeat, never a conflict), and saved in its own transaction while the
    /// next page downloads.
    ///
    /// A failure leaves earlier pages saved and nothing of the failing page. SIGINT/SIGTERM, and the
    /// deadline (`--max-time`), stop the run after the page being saved. Every run is recorded for `status`, failed ones included. A
    /// dry run is the same run in one transaction rolled back at the end (same counts, same errors);
    /// it saves nothing of its own, not even its record; only its API calls are recorded, for they
    /// were real.
    /// `pagesExpected` hears, before each `progress`, how many pages the walk expects as the feed
    /// last reported them (for a progress bar). `lease`, the fetch lock when it can be lost, is
    /// confirmed before each page's save and before the run's end.
    func fetch(
        _ settings: FetchSettings, lease: LockLease? = nil, progress: (FetchSummary) -> Void, pagesExpected: (Int) -> Void = { _ in }
    ) throws -> FetchSummary {
        let budget = FeedSource.isFile(settings.endpoint) ? nil : try apiBudget(settings)
        defer { if let budget { try? recordCalls(budget) } }
        var source = FeedSource(settings: settings, budget: budget)
        let history = try withContext { try SourceHistory(source.identity, in: $0) }
        if settings.search != nil { source.minUploadDate = history.searchFrom }
        let run = settings.dryRun ? nil : try startRun(source: source.identity)
        let interruption = InterruptionWatch()
        var summary = FetchSummary()
        do {
            let newest = try importPages(
                source, history, run: run, into: &summary, lease: lease, interruption: interruption, progress: progress,
                pagesExpected: pagesExpected)
            if let signal = interruption.signal { throw PhotoSyncError.interrupted(signal: signal) }
            if summary.gap { Console.warning(history.gapWarning(summary)) }
            try lease?.confirm()
            try finish(run, .succeeded, summary, error: nil, newestUpload: newest)
            return summary
        } catch let error as PhotoSyncError {
            let outcome: FetchRunRecord.Outcome = if case .interrupted = error { .interrupted } else { .failed }
            // A run that lost its lock ends when it last held it: before the next fetch's run began.
            let end = if case .locked = error, let lease { lease.confirmed } else { Date() }
            try? finish(run, outcome, summary, error: error.message, at: end)
            throw error
        } catch let error as GraphStoreError {
            let mapped = PhotoSyncError.from(error, path: path)
            try? finish(run, .failed, summary, error: mapped.message)
            throw mapped
        }
    }

    /// Walks the feed (see ``FeedWalk``) and saves each accepted page through one import session,
    /// downloading the next page while the current one is saved. After a completed fetch of the same
    /// source (and without `--full`), the next page is asked for only once the current one is
    /// judged: a page of photos all known ends the walk, and the request not made is quota saved.
    /// Returns the newest upload time among the photos received (a search's next mark).
    private func importPages(
        _ source: FeedSource, _ history: SourceHistory, run: ObjectID?, into summary: inout FetchSummary, lease: LockLease?,
        interruption: InterruptionWatch, progress: (FetchSummary) -> Void, pagesExpected: (Int) -> Void
    ) throws -> Date? {
        let settings = source.settings
        let incremental = history.lastRunCompleted && !settings.full
        var walk = FeedWalk(limit: settings.pages ?? settings.maxPages, isSingleDocument: source.isSingleDocument)
        let prepare = preparing(source: source.label)
        var arriving = ArrivingPage.decoded(try source.page(1))
        var newest: Date?
        try container.importing(mergePolicy: settings.mergePolicy.graphStorePolicy, dryRun: settings.dryRun) { session in
            session.transactionAuthor = run?.rowID.map { "fetch run \($0)" } ?? "fetch"
            var (number, received, skipped, excluded, datesUnknown) = (1, 0, 0, 0, 0)
            while walk.accept(arriving.page, asked: number) {
                let upcoming = walk.next(after: number)
                var pending = incremental ? nil : try upcoming.map { number throws(PhotoSyncError) in try PendingPage(number, from: source, prepare: prepare) }
                var page = try arriving.prepared(by: prepare)
                // What deletes exclude is read again in the save's transaction: a delete that
                // committed after the page was prepared is honoured, never undone by this page.
                let prepared = page
                try lease?.confirm()
                let result = try session.save(preparing: { context in
                    page = prepared.excluding(try Catalog.exclusions(for: prepared.page, in: context))
                    return [AnyImportRecords(page.photographers), AnyImportRecords(page.photos)]
                })
                received += page.page.photos.count + page.page.skipped.count
                newest = [newest, page.page.photos.lazy.compactMap(\.uploaded).max()].compactMap { $0 }.max()
                (skipped, excluded) = (skipped + page.page.skipped.count, excluded + page.excluded)
                summary = FetchSummary(session: session, pages: number, received: received, skipped: skipped, excluded: excluded)
                datesUnknown += page.page.notes.count
                summary.datesUnknown = datesUnknown
                if !settings.dryRun { try record(run, summary, calls: source.budget) }
                pagesExpected(walk.expectedPages)
                progress(summary)
                reportSkipped(page.page)
                if incremental && page.isKnown(result) { walk.stopAtKnownPage(number) }
                guard interruption.signal == nil, let upcoming, !walk.stoppedAtKnownPage else { break }
                if let deadline = settings.deadline, deadline.hasPassed { throw deadline.exceeded }
                pending = try pending ?? PendingPage(upcoming, from: source, prepare: prepare)
                (arriving, number) = (try pending!.wait(), upcoming)
            }
            (summary.morePages, summary.pagesSkippedKnown) = (walk.morePages, walk.pagesSkippedKnown)
            summary.gap = interruption.signal == nil && history.lastSuccess != nil && !walk.stoppedAtKnownPage
                && session.counts(Photo.self).unchanged + session.counts(Photo.self).updated + excluded == 0
        }
        return newest
    }

    /// Prepares a downloaded page for saving, leaving out what deletes excluded (read through the
    /// catalog's own connection pool, on the thread that downloaded the page or, when the saving
    /// thread was waiting for it, on that one: see ``PendingPage``).
    private func preparing(source: String) -> @Sendable (FeedPage) throws(PhotoSyncError) -> PreparedPage {
        let (container, path) = (container, path)
        return { page throws(PhotoSyncError) in
            do {
                return PreparedPage(page, source: source, excluding: try Catalog.exclusions(for: page, in: container))
            } catch let error as GraphStoreError {
                throw PhotoSyncError.from(error, path: path)
            } catch {
                throw PhotoSyncError.catalog("\(error)")
            }
        }
    }

    /// Skipped items and unusable values, the first three of each per page (not under `--quiet`).
    private func reportSkipped(_ page: FeedPage) {
        for (items, what) in [(page.skipped, "skipped"), (page.notes, "kept without their upload time")] where !items.isEmpty {
            let shown = items.prefix(3).map(\.reason).joined(separator: "; ")
            let more = items.count > 3 ? " (and \(items.count - 3) more)" : ""
            Console.notice("page \(page.page): \(what) \(items.count) item(s): \(shown)\(more)")
        }
    }

    // MARK: - Run records

    /// Records a new run, once earlier runs still marked running are marked abandoned: the fetch
    /// lock is held, so none of them is running (it was killed, or the machine went down).
    private func startRun(source: String) throws -> ObjectID {
        try withContext { context in
            for stale in try context.fetch(FetchRequest<FetchRun>(predicate: \.$outcome == FetchRunRecord.Outcome.running.rawValue)) {
                stale.outcome = FetchRunRecord.Outcome.abandoned.rawValue
            }
            let run = context.insert(FetchRun.self)
            (run.started, run.source) = (Date(), source)
            try context.save()
            return run.objectID
        }
    }

    /// The counts so far in the running run's record, and the API calls so far, after each saved page.
    private func record(_ id: ObjectID?, _ summary: FetchSummary, calls budget: APIBudget?) throws {
        try withContext { context in
            if let budget { insertCalls(budget, in: context) }
            if let id { try context.existingObject(with: id, as: FetchRun.self).record(summary) }
            try context.save()
        }
    }

    private func finish(
        _ id: ObjectID?, _ outcome: FetchRunRecord.Outcome, _ summary: FetchSummary, error: String?, newestUpload: Date? = nil,
        at end: Date = Date()
    ) throws {
        guard let id else { return }
        try withContext { context in
            let run = try context.existingObject(with: id, as: FetchRun.self)
            run.finished = end
            run.outcome = outcome.rawValue
            run.record(summary)
            run.error = error.map(Secrets.redact)
            run.newestUpload = newestUpload
            try context.save()
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
