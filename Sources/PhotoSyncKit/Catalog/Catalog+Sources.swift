import Foundation
import GraphStore

extension Catalog {
    /// Every source fetched so far, by label (as `list` spells it), sorted: when one last succeeded,
    /// and whether a cut walk is still to be finished. Sources of one label at several endpoints
    /// are one source: catching up if any of them is.
    static func sources(in context: ObjectContext) throws -> [SourceStatus] {
        let runs = try context.fetchColumns(FetchRequest<FetchRun>(), [\.$source, \.$outcome, \.$started, \.$finished])
        let (identities, outcomes) = (try runs.values(\.$source), try runs.values(\.$outcome))
        let (started, finished) = (try runs.values(\.$started), try runs.values(\.$finished))
        let pending = Set(try context.fetchColumns(FetchRequest<SourceBackfill>(), [\.$source]).values(\.$source))
        var byLabel: [String: SourceStatus] = [:]
        for row in identities.indices {
            let label = FeedSource.label(ofIdentity: identities[row])
            var source = byLabel[label] ?? SourceStatus(source: label, lastSuccess: nil, backfillPending: false)
            source.backfillPending = source.backfillPending || pending.contains(identities[row])
            if outcomes[row] == FetchRunRecord.Outcome.succeeded.rawValue {
                let end = finished[row] ?? started[row]
                source.lastSuccess = max(source.lastSuccess ?? end, end)
            }
            byLabel[label] = source
        }
        return byLabel.values.sorted { $0.source < $1.source }
    }
}
