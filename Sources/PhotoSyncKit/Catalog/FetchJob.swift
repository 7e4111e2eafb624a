import Foundation
import GraphStore
import PhotoFeed

/// One fetch, in the order it happens (``run()``):
/// 1. **Begin**: the API budget, what earlier runs of the source left (``SourceHistory``, a cut
///    walk's ``Backfill``), and the run's record.
/// 2. **Walk what is new** from page 1; a search past Flickr's cap walks its upload windows
///    instead (``walkWindows(after:in:)``).
/// 3. **Catch up**: within the same page limit, finish a walk an earlier limit cut.
/// 4. **Finish**: the run's record, the gap warning.
///
/// All pages are one import session, judged against the catalog as it stood when the fetch began,
/// each saved in its own transaction. Every page goes the same way: **download**, then
/// **prepare** (``PageDownload``, off the saving thread; the next page downloads as soon as one is
/// decoded) → **save** (what deletes exclude applied once, and the run's record, in the save's
/// transaction: see FetchJob+Page) → **account** (``WalkTally``, progress).
final class FetchJob {
    let catalog: Catalog
    let settings: FetchSettings
    let source: FeedSource
    private let history: SourceHistory
    let licenses: LicenseLookup
    let lease: LockLease?
    private let interruption: InterruptionWatch
    let progress: (FetchSummary) -> Void
    let pagesExpected: (Int) -> Void
    private let limit: Int

    private(set) var runRecord: ObjectID?
    /// Who the catalog's history says made the run's changes.
    private var author: String { runRecord?.rowID.map { "fetch run \($0)" } ?? "fetch" }
    private(set) lazy var accounts = AccountRenames(catalog: catalog, author: author)
    private(set) var tally = WalkTally()
    private var summary = FetchSummary()
    /// The walk of what is new, as step 2 left it.
    private var head: FeedWalk
    /// The head walk's `pages_skipped_known` and gap, kept in the summary while the catch up runs.
    private(set) var headFacts: (skippedKnown: Int, gap: Bool)?
    /// Where an unfinished earlier walk stands (nil: none).
    private var plan: Backfill?
    private var catchingUp: Bool
    /// Search windows still to walk: the search's mark stays until none is left.
    private var windowsPending = false

    /// Step 1, up to the run's record: what the run needs to know before its first request.
    init(
        _ catalog: Catalog, _ settings: FetchSettings, lease: LockLease?, interruption: InterruptionWatch,
        progress: @escaping (FetchSummary) -> Void, pagesExpected: @escaping (Int) -> Void
    ) throws {
        (self.catalog, self.settings, self.lease, self.interruption) = (catalog, settings, lease, interruption)
        (self.progress, self.pagesExpected) = (progress, pagesExpected)
        let budget = FeedSource.isFile(settings.endpoint) ? nil : try catalog.apiBudget(settings)
        var source = FeedSource(settings: settings, budget: budget, interruption: interruption)
        history = try catalog.withContext { try SourceHistory(source.identity, in: $0) }
        if settings.search != nil { source.minUploadDate = history.searchFrom }
        self.source = source
        licenses = try LicenseLookup(catalog: catalog, source: source, dryRun: settings.dryRun)
        limit = settings.pages ?? settings.maxPages
        head = FeedWalk(limit: limit, isSingleDocument: source.isSingleDocument)
        plan = source.isSingleDocument ? nil : try catalog.backfill(of: source.identity)
        catchingUp = plan != nil
    }

    /// The whole fetch. A failure leaves earlier pages saved and nothing of the failing page; every
    /// run is recorded, failed ones included. A dry run is one transaction rolled back at the end
    /// that records nothing of its own but its API calls, which were real.
    func run() throws -> FetchSummary {
        defer { if let budget = source.budget { try? catalog.recordCalls(budget) } }
        runRecord = settings.dryRun ? nil : try catalog.startRun(source: source.identity, historyDays: settings.historyDays)
        do {
            let before = settings.dryRun ? try catalog.container.currentHistoryToken() : .start
            try catalog.container.importing(mergePolicy: settings.mergePolicy.graphStorePolicy, dryRun: settings.dryRun) { session in
                session.transactionAuthor = author
                let page1 = try source.page(1)
                if settings.search != nil, !source.isSingleDocument, page1.total > UploadWindow.cap {
                    try walkWindows(after: page1, in: session)
                } else {
                    try walkNew(from: page1, in: session)
                    try catchUp(in: session)
                }
                if settings.dryRun { try summary.list(session.dryRunChanges(), token: before) }
            }
            try finish()
            return summary
        } catch let error as PhotoSyncError {
            let outcome: FetchRunRecord.Outcome = if case .interrupted = error { .interrupted } else { .failed }
            // A run that lost its lock ends when it last held it: before the next fetch's run began.
            let end = if case .locked = error, let lease { lease.confirmed } else { Date() }
            try? catalog.finish(runRecord, outcome, summary, error: error.message, at: end)
            throw error
        } catch let error as GraphStoreError {
            let mapped = PhotoSyncError.from(error, path: catalog.path)
            try? catalog.finish(runRecord, .failed, summary, error: mapped.message)
            throw mapped
        }
    }

    /// Step 2: what is new, from page 1. An incremental fetch stops at a page of known photos; a
    /// walk the limit cut is recorded for later runs to finish (step 3).
    private func walkNew(from page1: FeedPage, in session: ImportSession) throws {
        let incremental = history.lastRunCompleted && !settings.full
        let began = Date()
        let floor = plan.map(\.floor) ?? history.mark
        var reachedFloor = false
        try walkPages(&head, of: source, from: page1, .new(incremental: incremental), in: session) { page, _, _ in
            reachedFloor = reachedFloor || Backfill.reaches(floor, page.page)
        }
        let photos = session.counts(Photo.self)
        let gap = interruption.signal == nil && history.lastSuccess != nil && !head.stoppedAtKnownPage
            && photos.unchanged + photos.updated + tally.excluded == 0
        (summary.morePages, summary.pagesSkippedKnown, summary.gap) = (head.morePages, head.pagesSkippedKnown, gap)
        headFacts = (head.pagesSkippedKnown, gap)
        guard interruption.signal == nil else {
            plan = nil
            return
        }
        if head.reachedEnd || reachedFloor {
            catchingUp = false
        } else if head.morePages > 0, let last = tally.last {
            catchingUp = true
            let cut = Backfill(cutAfter: head.fetched, perPage: settings.perPage, total: head.reportedTotal, last: last, floor: floor,
                               began: plan?.began ?? began)
            if !settings.dryRun { try catalog.recordBackfill(cut, of: source.identity) }
            plan = nil
        }
    }

    /// Step 2 for a search past the cap: its upload windows (see ``UploadWindow``), newest first,
    /// skipping those earlier runs completed; every request counts against the limit. The query's
    /// newest result (on `page1`) is the mark once every window is walked, whichever run walked it.
    private func walkWindows(after page1: FeedPage, in session: ImportSession) throws {
        tally.newest = page1.photos.compactMap(\.uploaded).max()
        var calls = limit - 1
        let whole = UploadWindow(from: source.minUploadDate.map { Int($0.timeIntervalSince1970) } ?? 0, to: Int(Date().timeIntervalSince1970))
        var windows = whole.uncovered(by: try catalog.completedWindows(of: source.identity))
        defer { (windowsPending, summary) = (!windows.isEmpty, tally.summary(session)) }
        while let window = windows.popLast() {
            guard calls > 0, interruption.signal == nil else { return windows.append(window) }
            var bounded = source
            (bounded.minUploadDate, bounded.maxUploadDate) = (window.fromDate, window.toDate)
            let probe = try bounded.page(1)
            calls -= 1
            if probe.total > UploadWindow.cap && !window.isOneSecond {
                windows += [window.halves.older, window.halves.newer]
                continue
            }
            if probe.total > UploadWindow.cap { reportOverCap(window, probe.total) }
            let reachable = (UploadWindow.cap + settings.perPage - 1) / settings.perPage
            var walk = FeedWalk(limit: min(calls + 1, reachable), isSingleDocument: false)
            try walkPages(&walk, of: bounded, from: probe, .window, in: session)
            calls -= max(0, walk.fetched - 1)
            guard walk.reachedEnd || walk.fetched >= reachable else { return windows.append(window) }
            if !settings.dryRun { try catalog.recordCompleted(window, of: source.identity) }
        }
    }

    /// A window one second wide still over the cap: reported, and walked as far as Flickr serves.
    private func reportOverCap(_ window: UploadWindow, _ total: Int) {
        tally.windowsOverCap += 1
        Console.warning("search window at \(window.description) holds \(total) results in one second, more than the "
            + "\(UploadWindow.cap) Flickr serves: only the first \(UploadWindow.cap) can be fetched")
    }

    /// Step 3: within what is left of the page limit, continues the walk an earlier limit cut (see
    /// ``Backfill``) until it meets photos stored before that walk began, and records where it stands.
    private func catchUp(in session: ImportSession) throws {
        guard var plan else { return }
        plan.shift(by: session.counts(Photo.self).inserted)
        let remaining = limit - head.fetched
        if catchingUp, remaining > 0 {
            var resumed = source
            if settings.search != nil, let anchor = plan.anchorUploaded { (resumed.minUploadDate, resumed.maxUploadDate) = (nil, anchor) }
            if let start = try plan.resumePoint(from: resumed, perPage: settings.perPage, within: remaining) {
                var walk = FeedWalk(limit: remaining - start.calls + 1, isSingleDocument: false, first: start.number)
                try walkPages(&walk, of: resumed, from: start.page, .catchUp, in: session) { page, number, walk in
                    if plan.reachesFloor(page.page) { walk.stopAtFloor() }
                    plan.advance(past: number, perPage: settings.perPage, total: page.page.total, last: tally.last)
                    catchingUp = !walk.reachedFloor && !walk.reachedEnd
                    if !settings.dryRun { try catalog.recordBackfill(catchingUp ? plan : nil, of: source.identity) }
                }
                summary.morePages = walk.morePages
            }
        }
        if !settings.dryRun { try catalog.recordBackfill(catchingUp ? plan : nil, of: source.identity) }
    }

    /// Step 4: the run's record, with the search's next mark, which moves only once every window is
    /// walked (until then, later runs start again from the same `min_upload_date`).
    private func finish() throws {
        if let signal = interruption.signal { throw PhotoSyncError.interrupted(signal: signal) }
        if summary.gap { Console.warning(history.gapWarning(summary, catchingUp: catchingUp, limit: limit)) }
        try lease?.confirm()
        try catalog.finish(runRecord, .succeeded, summary, error: nil, newestUpload: windowsPending ? nil : tally.newest)
    }

    /// Saves each page `walk` accepts, from `first` on: the page goes download → prepare → save →
    /// account. The next download starts once a page is decoded, while it is prepared and saved.
    /// `judge` sees each saved page, and may end the walk.
    private func walkPages(
        _ walk: inout FeedWalk, of source: FeedSource, from first: FeedPage, _ kind: Walk, in session: ImportSession,
        judge: (PreparedPage, Int, inout FeedWalk) throws -> Void = { _, _, _ in }
    ) throws {
        let earlier = tally.pages
        var (number, decoded, arriving) = (walk.first, first, PageDownload?.none)
        while walk.accept(decoded, asked: number) {
            let upcoming = walk.next(after: number)
            let download = kind.prefetches ? try upcoming.map { try PageDownload($0, from: source, label: source.label) } : nil
            let prepared = arriving?.prepared() ?? PreparedPage(decoded, source: source.label)
            let (saved, result) = try save(prepared, catchUp: kind == .catchUp, in: session)
            account(saved, catchUp: kind == .catchUp, in: session, expected: earlier + walk.expectedPages)
            if kind == .new(incremental: true), saved.isKnown(result) { walk.stopAtKnownPage(number) }
            try judge(saved, number, &walk)
            guard interruption.signal == nil, let upcoming, !walk.stoppedAtKnownPage, !walk.reachedFloor else { return }
            if let deadline = settings.deadline, deadline.hasPassed { throw deadline.exceeded }
            let next = try download ?? PageDownload(upcoming, from: source, label: source.label)
            (number, decoded, arriving) = (upcoming, try next.page(), next)
        }
    }

    /// Counts a saved page into the run: its tally, the progress shown (its record is written by its save).
    private func account(_ page: PreparedPage, catchUp: Bool, in session: ImportSession, expected: Int) {
        (tally, summary) = counted(page, catchUp: catchUp, in: session, pending: nil)
        pagesExpected(expected)
        progress(summary)
        catalog.reportSkipped(page.page)
    }
}
