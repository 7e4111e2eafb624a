import Foundation
import PhotoFeed

/// One `download` over the catalog: plan, transfer, record, summarize. Shared by `download` and
/// `fetch --download`.
struct DownloadPass {
    let catalog: Catalog
    let settings: DownloadSettings
    var photographer: String?
    var deadline: FetchDeadline?

    /// How the pass ended beyond its counts: what decides the exit status.
    enum Stop: Equatable {
        case none
        case byteLimit
        case timeLimit
        case diskFull(String)
    }

    /// The plan only: what a run would download (`--dry-run`).
    func preview() throws -> DownloadSummary {
        let plan = try plan()
        return DownloadSummary(present: plan.present, unavailable: plan.unavailable, pending: plan.jobs.count)
    }

    func run() throws -> (DownloadSummary, Stop) {
        let plan = try plan()
        var summary = DownloadSummary(present: plan.present, unavailable: plan.unavailable)
        guard !plan.jobs.isEmpty else { return (summary, .none) }
        try FileManager.default.createDirectory(atPath: settings.folder, withIntermediateDirectories: true)
        let budget = ByteBudget(limit: settings.maxBytes)
        let deadline = deadline
        let download = ImageDownload(folder: settings.folder, budget: budget, isCancelled: { deadline?.hasPassed == true })
        let client = CurlHTTPClient(configuration: settings.httpConfiguration)
        var diskFull: String?
        var finished = 0
        try DownloadRun(jobs: plan.jobs, parallel: settings.jobs, download: download, client: client).run { batch in
            try catalog.record(batch)
            for (job, outcome) in batch {
                summary.count(outcome)
                finished += Self.isSettled(outcome) ? 1 : 0
                Self.log(job, outcome)
                if case .noSpace(let message) = outcome { diskFull = message }
            }
        }
        summary.pending = plan.jobs.count - finished
        let stop: Stop = diskFull.map { .diskFull($0) } ?? (budget.isExhausted ? .byteLimit : deadline?.hasPassed == true ? .timeLimit : .none)
        return (summary, stop)
    }

    /// The plan, and a word on the photos it leaves out for want of a size.
    private func plan() throws -> DownloadPlan {
        let plan = try catalog.downloadPlan(photographer: photographer, sizes: settings.sizes, folder: settings.folder,
                                            retryUnavailable: settings.retryUnavailable)
        if plan.withoutSize > 0 {
            Console.notice("\(plan.withoutSize) photo(s) have none of the sizes \(settings.sizes.joined(separator: ",")): not downloaded")
        }
        return plan
    }

    /// Downloaded or marked unavailable: nothing left to do for the photo this time.
    private static func isSettled(_ outcome: DownloadOutcome) -> Bool {
        switch outcome {
        case .downloaded, .unavailable: true
        case .failed, .stopped, .noSpace, .restartNeeded: false
        }
    }

    /// The lines are built only when someone reads them (`info` mostly no one): redacting the id
    /// of every downloaded photo cost more than the transfers' own Swift code.
    private static func log(_ job: DownloadJob, _ outcome: DownloadOutcome) {
        var photo: String { "photo \(Console.safeLine(job.photoID))" }
        switch outcome {
        case .downloaded(let file): Console.info("\(photo): downloaded \(file.path), \(file.size) bytes")
        case .unavailable(_, let reason): Console.warning("\(photo): unavailable: \(Console.safeLine(reason))")
        case .failed(let reason): Console.warning("\(photo): download failed, will be tried again: \(Console.safeLine(reason))")
        case .stopped, .noSpace, .restartNeeded: break
        }
    }
}
