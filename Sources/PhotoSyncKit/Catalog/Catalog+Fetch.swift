import Foundation
import GraphStore
import PhotoFeed

extension Catalog {
    /// Fetches pages 1...min(requested or max pages, pages the feed reports) and saves each page in
    /// its own transaction, downloading the next page while the current one is saved.
    ///
    /// A failure leaves earlier pages saved and nothing of the failing page. SIGINT/SIGTERM stop the
    /// run after the page being saved. Every run is recorded for `status`, failed ones included;
    /// a dry run saves nothing at all, not even its record.
    public func fetch(_ settings: FetchSettings, progress: (FetchSummary) -> Void) throws -> FetchSummary {
        let run = settings.dryRun ? nil : try startRun()
        let interruption = InterruptionWatch()
        var summary = FetchSummary()
        do {
            try fetchPages(settings, into: &summary, interruption: interruption, progress: progress)
            if let signal = interruption.signal { throw PhotoSyncError.interrupted(signal: signal) }
            try finish(run, .succeeded, summary, error: nil)
            return summary
        } catch let error as PhotoSyncError {
            let outcome: FetchRunRecord.Outcome = if case .interrupted = error { .interrupted } else { .failed }
            try? finish(run, outcome, summary, error: error.message)
            throw error
        } catch let error as GraphStoreError {
            let mapped = PhotoSyncError.from(error, path: path)
            try? finish(run, .failed, summary, error: mapped.message)
            throw mapped
        }
    }

    private func fetchPages(
        _ settings: FetchSettings, into summary: inout FetchSummary, interruption: InterruptionWatch,
        progress: (FetchSummary) -> Void
    ) throws {
        let source = FeedSource(settings: settings)
        let importer = PageImporter(container: container, policy: settings.mergePolicy.graphStorePolicy)
        var page = PreparedPage(try source.page(1))
        let last = source.isSingleDocument ? 1 : max(1, min(settings.pages ?? settings.maxPages, page.page.pages))
        var expectingNewPhotos = false
        for number in 1...last {
            let next = number < last ? PendingPage(number + 1, from: source) : nil
            let saved = try importPage(page, importer, dryRun: settings.dryRun, expectingNewPhotos: expectingNewPhotos)
            summary += saved
            // A page of only new photos predicts the next (a first import): see PageImporter.
            expectingNewPhotos = saved.inserted > 0 && saved.inserted == saved.received - saved.skipped
            progress(summary)
            reportSkipped(page.page)
            if interruption.signal != nil { return }
            if let next { page = try next.wait() }
        }
    }

    private func importPage(_ page: PreparedPage, _ importer: PageImporter, dryRun: Bool, expectingNewPhotos: Bool) throws -> FetchSummary {
        do {
            return try importer.importPage(page, dryRun: dryRun, expectingNewPhotos: expectingNewPhotos)
        } catch let error as GraphStoreError {
            throw PhotoSyncError.from(error, path: path)
        }
    }

    private func reportSkipped(_ page: FeedPage) {
        guard !page.skipped.isEmpty else { return }
        let shown = page.skipped.prefix(3).map(\.reason).joined(separator: "; ")
        let more = page.skipped.count > 3 ? " (and \(page.skipped.count - 3) more)" : ""
        FileHandle.standardError.write(Data("photosync: page \(page.page): skipped \(page.skipped.count) item(s): \(shown)\(more)\n".utf8))
    }

    // MARK: - Run records

    private func startRun() throws -> ObjectID {
        try withContext { context in
            let run = context.insert(FetchRun.self)
            run.started = Date()
            try context.save()
            return run.objectID
        }
    }

    private func finish(_ id: ObjectID?, _ outcome: FetchRunRecord.Outcome, _ summary: FetchSummary, error: String?) throws {
        guard let id else { return }
        try withContext { context in
            let run = try context.existingObject(with: id, as: FetchRun.self)
            run.finished = Date()
            run.outcome = outcome.rawValue
            run.record(summary)
            run.error = error
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
