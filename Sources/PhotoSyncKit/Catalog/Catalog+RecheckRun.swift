import Foundation

/// Which photos `recheck` asks about.
public struct RecheckRequest: Sendable, Equatable {
    public var limit: Int
    /// Only photos not checked in this many days (never-checked ones always qualify).
    public var olderThanDays: Int?
    public var photographer: String?
}

extension Catalog {
    /// Re-checks the photos `request` chooses, one `flickr.photos.getInfo` each, within the key's
    /// hourly budget: a budget that runs out ends the run early (`left` says how many were not
    /// re-checked), not in an error. Each photo is saved as it is re-checked.
    /// - Throws: `.network` (69) for an API code other than 1, 2, 105 and 106 (retried); photos
    ///   re-checked before stay saved. `.interrupted` after a signal, between photos.
    func recheck(_ settings: FetchSettings, _ request: RecheckRequest, interruption: InterruptionWatch) throws -> RecheckSummary {
        let budget = try apiBudget(settings)
        defer { try? recordCalls(budget) }
        let source = FeedSource(settings: settings, budget: budget, interruption: interruption)
        let olderThan = request.olderThanDays.map { Date().addingTimeInterval(-Double($0) * 86_400) }
        let ids = try recheckCandidates(limit: request.limit, olderThan: olderThan, photographer: request.photographer)
        var summary = RecheckSummary()
        for (index, id) in ids.enumerated() {
            if let signal = interruption.signal { throw PhotoSyncError.interrupted(signal: signal) }
            let answer: PhotoInfoAnswer
            do {
                guard !budget.isSpent() else { throw PhotoSyncError.tryLater("the API budget is spent") }
                answer = try source.photoInfo(id)
            } catch PhotoSyncError.tryLater(_) where budget.isSpent() {
                summary.left = ids.count - index
                break
            }
            try applyRecheck(id, answer, policy: settings.mergePolicy.graphStorePolicy, into: &summary)
        }
        return summary
    }
}
