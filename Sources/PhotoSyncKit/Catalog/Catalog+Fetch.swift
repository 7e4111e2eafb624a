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
    /// confirmed before each page's save and before the run's end. A signal recorded on
    /// `interruption` (the process's watch, for a command) stops the run.
    func fetch(
        _ settings: FetchSettings, lease: LockLease? = nil, interruption: InterruptionWatch, progress: (FetchSummary) -> Void,
        pagesExpected: (Int) -> Void = { _ in }
    ) throws -> FetchSummary {
        let budget = FeedSource.isFile(settings.endpoint) ? nil : try apiBudget(settings)
        defer { if let budget { try? recordCalls(budget) } }
        var source = FeedSource(settings: settings, budget: budget, interruption: interruption)
        let history = try withContext { try SourceHistory(source.identity, in: $0) }
        if settings.search != nil { source.minUploadDate = history.searchFrom }
        let run = settings.dryRun ? nil : try startRun(source: source.identity)
        var summary = FetchSummary()
        do {
            let (newest, catchingUp) = try importPages(
                source, history, run: run, into: &summary, lease: lease, interruption: interruption, progress: progress,
                pagesExpected: pagesExpected)
            if let signal = interruption.signal { throw PhotoSyncError.interrupted(signal: signal) }
            if summary.gap { Console.warning(history.gapWarning(summary, catchingUp: catchingUp, limit: settings.pages ?? settings.maxPages)) }
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
    /// Then, within the same page limit, it continues the unfinished part of an earlier walk the
    /// limit cut (see ``Backfill``), and records where that stands.
    /// Returns the newest upload time among the photos received (a search's next mark), and
    /// whether the source is still catching up.
    private func importPages(
        _ source: FeedSource, _ history: SourceHistory, run: ObjectID?, into summary: inout FetchSummary, lease: LockLease?,
        interruption: InterruptionWatch, progress: (FetchSummary) -> Void, pagesExpected: (Int) -> Void
    ) throws -> (newest: Date?, catchingUp: Bool) {
        let settings = source.settings
        let incremental = history.lastRunCompleted && !settings.full
        let limit = settings.pages ?? settings.maxPages
        let pending = source.isSingleDocument ? nil : try backfill(of: source.identity)
        let began = Date()
        var head = FeedWalk(limit: limit, isSingleDocument: source.isSingleDocument)
        let prepare = preparing(source: source.label)
        let licenses = try LicenseLookup(catalog: self, source: source, dryRun: settings.dryRun)
        var tally = WalkTally()
        var catchingUp = pending != nil
        var windowsPending = false
        /// The head walk's `pages_skipped_known` and gap, kept in the summary while the catch up runs.
        var headFacts: (skippedKnown: Int, gap: Bool)?
        try container.importing(mergePolicy: settings.mergePolicy.graphStorePolicy, dryRun: settings.dryRun) { session in
            session.transactionAuthor = run?.rowID.map { "fetch run \($0)" } ?? "fetch"
            /// Saves each page `walk` accepts, from `first` on; `judge` sees each saved page.
            func walkPages(
                _ walk: inout FeedWalk, _ source: FeedSource, _ first: ArrivingPage, backfill: Bool, stopAtKnown: Bool,
                judge: (PreparedPage, Int, inout FeedWalk) throws -> Void = { _, _, _ in }
            ) throws {
                let (earlier, prefetch) = (tally.pages, !stopAtKnown && !backfill)
                var (number, arriving) = (walk.first, first)
                while walk.accept(arriving.page, asked: number) {
                    let upcoming = walk.next(after: number)
                    var pending = prefetch ? try upcoming.map { number throws(PhotoSyncError) in try PendingPage(number, from: source, prepare: prepare) } : nil
                    let (page, result) = try save(arriving, session: session, lease: lease, licenses: licenses, prepare: prepare)
                    tally.add(page, backfill: backfill)
                    summary = tally.summary(session)
                    if let headFacts { (summary.pagesSkippedKnown, summary.gap) = headFacts }
                    if !settings.dryRun { try record(run, summary, calls: source.budget) }
                    pagesExpected(earlier + walk.expectedPages)
                    progress(summary)
                    reportSkipped(page.page)
                    if stopAtKnown && !backfill && page.isKnown(result) { walk.stopAtKnownPage(number) }
                    try judge(page, number, &walk)
                    guard interruption.signal == nil, let upcoming, !walk.stoppedAtKnownPage, !walk.reachedFloor else { break }
                    if let deadline = settings.deadline, deadline.hasPassed { throw deadline.exceeded }
                    pending = try pending ?? PendingPage(upcoming, from: source, prepare: prepare)
                    (arriving, number) = (try pending!.wait(), upcoming)
                }
            }

            /// Walks a search over the cap window by window (see ``UploadWindow``), newest first,
            /// skipping the windows earlier runs completed; every request counts against the limit.
            func walkWindows() throws {
                var calls = limit - 1
                let whole = UploadWindow(from: source.minUploadDate.map { Int($0.timeIntervalSince1970) } ?? 0,
                                         to: Int(Date().timeIntervalSince1970))
                var windows = whole.uncovered(by: try completedWindows(of: source.identity))
                defer { windowsPending = !windows.isEmpty }
                while let window = windows.popLast() {
                    guard calls > 0, interruption.signal == nil else { return windows.append(window) }
                    var bounded = source
                    (bounded.minUploadDate, bounded.maxUploadDate) = (Date(timeIntervalSince1970: Double(window.from)),
                                                                      Date(timeIntervalSince1970: Double(window.to)))
                    let probe = try bounded.page(1)
                    calls -= 1
                    if probe.total > UploadWindow.cap && !window.isOneSecond {
                        windows += [window.halves.older, window.halves.newer]
                        continue
                    }
                    if probe.total > UploadWindow.cap { reportOverCap(window, probe.total, tally: &tally) }
                    let reachable = (UploadWindow.cap + settings.perPage - 1) / settings.perPage
                    var walk = FeedWalk(limit: min(calls + 1, reachable), isSingleDocument: false)
                    try walkPages(&walk, bounded, .decoded(probe), backfill: false, stopAtKnown: false)
                    calls -= max(0, walk.fetched - 1)
                    guard walk.reachedEnd || walk.fetched >= reachable else { return windows.append(window) }
                    if !settings.dryRun { try recordCompleted(window, of: source.identity) }
                }
            }

            let page1 = try source.page(1)
            if settings.search != nil, !source.isSingleDocument, page1.total > UploadWindow.cap {
                // The query's newest result is the mark once every window is walked, whichever run walked it.
                tally.newest = page1.photos.compactMap(\.uploaded).max()
                try walkWindows()
                summary = tally.summary(session)
                return
            }
            let floor = pending.map(\.floor) ?? history.mark
            var headReachedFloor = false
            try walkPages(&head, source, .decoded(page1), backfill: false, stopAtKnown: incremental) { page, _, _ in
                headReachedFloor = headReachedFloor || Backfill.reaches(floor, page.page)
            }
            let photos = session.counts(Photo.self)
            let gap = interruption.signal == nil && history.lastSuccess != nil && !head.stoppedAtKnownPage
                && photos.unchanged + photos.updated + tally.excluded == 0
            (summary.morePages, summary.pagesSkippedKnown, summary.gap) = (head.morePages, head.pagesSkippedKnown, gap)
            headFacts = (head.pagesSkippedKnown, gap)
            guard interruption.signal == nil else { return }
            if head.reachedEnd || headReachedFloor {
                catchingUp = false
            } else if head.morePages > 0, let last = tally.last {
                catchingUp = true
                let cut = Backfill(cutAfter: head.fetched, perPage: settings.perPage, total: head.reportedTotal, last: last, floor: floor,
                                   began: pending?.began ?? began)
                if !settings.dryRun { try recordBackfill(cut, of: source.identity) }
                return
            }
            guard var plan = pending else { return }
            plan.shift(by: photos.inserted)
            let remaining = limit - head.fetched
            if catchingUp, remaining > 0 {
                var resumed = source
                if settings.search != nil, let anchor = plan.anchorUploaded { (resumed.minUploadDate, resumed.maxUploadDate) = (nil, anchor) }
                if let start = try resumePoint(&plan, from: resumed, perPage: settings.perPage, within: remaining) {
                    var walk = FeedWalk(limit: remaining - start.calls + 1, isSingleDocument: false, first: start.number)
                    try walkPages(&walk, resumed, .decoded(start.page), backfill: true, stopAtKnown: false) { page, number, walk in
                        if plan.reachesFloor(page.page) { walk.stopAtFloor() }
                        plan.advance(past: number, perPage: settings.perPage, total: page.page.total, last: tally.last)
                        catchingUp = !walk.reachedFloor && !walk.reachedEnd
                        if !settings.dryRun { try recordBackfill(catchingUp ? plan : nil, of: source.identity) }
                    }
                    (summary.morePages, summary.pagesSkippedKnown, summary.gap) = (walk.morePages, head.pagesSkippedKnown, gap)
                }
            }
            if !settings.dryRun { try recordBackfill(catchingUp ? plan : nil, of: source.identity) }
        }
        // A search's mark moves only once every window is walked: until then, later runs start again
        // from the same `min_upload_date` and skip the windows completed.
        return (windowsPending ? nil : tally.newest, catchingUp)
    }

    /// A window one second wide still over the cap: reported, and walked as far as Flickr serves.
    private func reportOverCap(_ window: UploadWindow, _ total: Int, tally: inout WalkTally) {
        tally.windowsOverCap += 1
        Console.warning("search window at \(window.description) holds \(total) results in one second, more than the "
            + "\(UploadWindow.cap) Flickr serves: only the first \(UploadWindow.cap) can be fetched")
    }

    /// Saves `arriving` through `session`, leaving out what deletes exclude. What deletes exclude is
    /// read again in the save's transaction: a delete that committed after the page was prepared is
    /// honoured, never undone by this page. License ids the page brings that the catalog lacks are
    /// looked up first (see ``LicenseLookup``); the photos' tags are linked by the same save.
    private func save(
        _ arriving: ArrivingPage, session: ImportSession, lease: LockLease?, licenses: LicenseLookup,
        prepare: (FeedPage) throws(PhotoSyncError) -> PreparedPage
    ) throws -> (PreparedPage, ImportResult) {
        let prepared = try arriving.prepared(by: prepare)
        try licenses.meet(prepared.page)
        var page = prepared
        try lease?.confirm()
        let result = try session.save(preparing: { context in
            page = prepared.excluding(try Catalog.exclusions(for: prepared.page, in: context))
            return [AnyImportRecords(page.photographers), AnyImportRecords(page.photos), AnyImportRecords(page.tags)]
        })
        return (page, result)
    }

    /// The page where `plan`'s catch up resumes (a search: page 1 of the uploads up to the anchor),
    /// checked against the anchor (see ``Backfill/misplaces(_:asked:)``): a misplaced page sends the
    /// search a page back, each request counted. Nil when `calls` ran out first: `plan` then
    /// resumes at the page reached.
    private func resumePoint(
        _ plan: inout Backfill, from source: FeedSource, perPage: Int, within calls: Int
    ) throws -> (number: Int, page: FeedPage, calls: Int)? {
        var number = source.maxUploadDate != nil ? 1 : plan.resumePage(perPage: perPage)
        for call in 1...max(1, calls) {
            let page = try source.page(number)
            if !plan.misplaces(page, asked: number) || number == 1 { return (number, page, call) }
            number = page.page != number ? max(1, min(number - 1, page.pages)) : number - 1
        }
        plan.offset = (number - 1) * perPage
        return nil
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
}
