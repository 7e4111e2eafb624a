@testable import PhotoSyncKit

/// What the generated sequences exercised, tallied from the model's predictions: a model test
/// whose generator stopped reaching a rule would pass while checking nothing, so the test
/// requires every case below to occur.
struct ModelCoverage {
    private(set) var counts: [String: Int] = [:]
    private var lastDryRun: ModelFetch?

    mutating func note(_ step: ModelStep, _ outcome: FetchModel.Outcome, run: FetchSummary?) {
        if case .fetch(var fetch) = step {
            fetch.dryRun = true
            if fetch == lastDryRun { add("a dry run, then the same fetch for real") }
            lastDryRun = step.isDryRun ? fetch : nil
        }
        switch (step, outcome) {
        case (.fetch(let fetch), .fetched(let s)):
            for (name, happened) in [
                ("a fetch of several pages", s.pages > 1), ("an insert", s.inserted > 0), ("an update", s.updated > 0),
                ("an unchanged photo", s.unchanged > 0), ("a repeat", s.repeated > 0), ("a repeat on a later page", Self.repeatsAcrossPages(fetch)),
                ("a skipped item", s.skipped > 0), ("an excluded item", s.excluded > 0), ("a new photographer", s.photographersInserted > 0),
                ("a photographer emptied by a fetch", s.photographersRemoved > 0), ("pages past the limit", s.morePages > 0),
                ("a gap", s.gap), ("a dry-run fetch", fetch.dryRun),
                ("a stop at a page of known photos", s.pagesSkippedKnown > 0), ("a --full fetch", fetch.full),
                ("a catch up of a cut walk", s.backfillPages > 0), ("a renamed account", s.photographersRenamed > 0),
            ] where happened { counts[name, default: 0] += 1 }
        case (.fetch(let fetch), .failed):
            add("a walk that failed at a page")
            if (run?.pages ?? 0) > 0 && !fetch.dryRun { add("a failed walk after saved pages") }
        case (.fetch(let fetch), .conflict):
            add("a conflict")
            if (run?.pages ?? 0) > 0 { add("a conflict after saved pages") }
            if fetch.dryRun { add("a dry-run conflict") }
        case (.deletePhotos(_, _, let dryRun), .deleted(let report)):
            add(dryRun ? "a dry-run delete" : "a delete by id")
            if !report.photographersRemoved.isEmpty { add("a delete emptying a photographer") }
        case (.deletePhotographer, .deleted): add("a delete of a photographer")
        case (.restorePhotos, .restored): add("a restore of ids")
        case (.restorePhotographer, .restored(let report)) where !report.photoIDs.isEmpty: add("a restore of a photographer")
        case (_, .notFound): add("a refusal (not found)")
        default: break
        }
    }

    /// The cases `policy`'s sequences must reach (under `error`, only new photos are ever stored,
    /// so nothing stored before is updated or unchanged).
    func missing(for policy: MergePolicyChoice) -> [String] {
        var wanted = [
            "a fetch of several pages", "an insert", "a repeat", "a repeat on a later page", "a skipped item", "an excluded item",
            "a new photographer", "a photographer emptied by a fetch", "pages past the limit", "a gap", "a dry-run fetch",
            "a conflict", "a dry-run delete", "a delete by id", "a delete emptying a photographer", "a delete of a photographer",
            "a restore of ids", "a restore of a photographer", "a refusal (not found)", "a dry run, then the same fetch for real",
            "a walk that failed at a page", "a failed walk after saved pages", "a --full fetch",
        ]
        if policy != .error { wanted += ["a stop at a page of known photos", "a catch up of a cut walk"] }
        if policy != .error { wanted += ["an update", "an unchanged photo"] }
        if policy == .error { wanted += ["a conflict after saved pages", "a dry-run conflict"] }
        if policy == .objectTrump { wanted.append("a renamed account") }
        return wanted.filter { counts[$0, default: 0] == 0 }
    }

    private mutating func add(_ name: String) { counts[name, default: 0] += 1 }

    private static func repeatsAcrossPages(_ fetch: ModelFetch) -> Bool {
        var earlier: Set<String> = []
        for page in fetch.pages.prefix(fetch.limit) {
            if page.contains(where: { earlier.contains($0.id) }) { return true }
            earlier.formUnion(page.map(\.id))
        }
        return false
    }
}
