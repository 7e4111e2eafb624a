@testable import PhotoSyncKit

/// A fetch in the model: one import judged against the catalog as it stood when the fetch began,
/// each page saved on its own (README, "photosync fetch"; GraphStore README, "Importing records").
extension FetchModel {
    /// What one fetch has seen so far: the ids it counted, and which of those were stored before it.
    struct Session {
        var seen: Set<String> = []
        var storedBefore: Set<String> = []
        var updated: Set<String> = []
        var summary = FetchSummary()
    }

    /// The fetch's outcome, and the counts its run record keeps (nil for a dry run: no record).
    ///
    /// Incremental (README, "Incremental"): after a completed fetch and without `--full`, a page
    /// whose photos (excluded ones count) were all in the catalog, unchanged, and not repeats ends
    /// the walk; the pages within the limit not asked for are `pages_skipped_known`, and no
    /// `more_pages` is reported. A failed or conflicting run makes the next one walk to its limit.
    /// Then the catch up of a walk the limit cut (README, "Catching up"; see FetchModel+CatchUp).
    mutating func fetched(_ fetch: ModelFetch) -> (outcome: Outcome, run: FetchSummary?) {
        var walk = ModelWalk(fetch: fetch, start: self)
        let outcome = walk.run()
        if !fetch.dryRun {
            (self, lastRunCompleted) = (walk.work, outcome == nil)
            backfill = walk.recorded
            if outcome == nil { (hadSuccessfulFetch, mark) = (true, [mark, walk.newest].compactMap { $0 }.max()) }
        }
        return (outcome ?? .fetched(walk.session.summary), fetch.dryRun ? nil : walk.session.summary)
    }

    /// A page an incremental walk stops after: not empty (an excluded photo counts), and every photo
    /// on it stored before the fetch, seen for the first time in the fetch, and left as it was (the
    /// store wins under `store-trump`, so there a stored photo is always left as it was).
    static func isKnown(_ kept: [ModelItem], excluded: Int, policy: MergePolicyChoice, before start: FetchModel, session: Session) -> Bool {
        let ids = kept.map(\.id)
        guard kept.count + excluded > 0, Set(ids).count == ids.count else { return false }
        return kept.allSatisfy { item in
            guard !session.seen.contains(item.id), let stored = start.photos[item.id] else { return false }
            return policy == .storeTrump || stored == item.photo
        }
    }

    /// Under `error`: the page's distinct photo ids and photographer names that were in the
    /// catalog before the fetch (what the fetch stored itself never conflicts).
    func conflicts(_ items: [ModelItem]) -> Set<String> {
        Set(items.filter { photos[$0.id] != nil }.map { "photo \($0.id)" })
            .union(items.filter { owners[$0.ownerName] != nil }.map { "photographer \($0.ownerName)" })
    }

    /// One page saved: its winning copy of each photo and photographer written as the policy says.
    mutating func save(_ items: [ModelItem], policy: MergePolicyChoice, before start: FetchModel, session: inout Session) {
        let firstWins = policy == .storeTrump
        var order: [String] = []
        var winners: [String: ModelItem] = [:]
        var ownerIDs: [String: String] = [:]
        for item in items {
            count(item.id, before: start, session: &session)
            if winners[item.id] == nil { order.append(item.id) }
            if winners[item.id] == nil || !firstWins { winners[item.id] = item }
            if ownerIDs[item.ownerName] == nil || !firstWins { ownerIDs[item.ownerName] = item.ownerID }
        }
        var linked: Set<String> = []
        for id in order {
            let incoming = winners[id]!.photo
            guard let current = photos[id] else {
                photos[id] = incoming
                linked.insert(incoming.photographer)
                continue
            }
            guard !firstWins, current != incoming else { continue }
            photos[id] = incoming
            linked.insert(incoming.photographer)
            if start.photos[id] != nil { session.updated.insert(id) }
        }
        saveOwners(ownerIDs, linked: linked, firstWins: firstWins, session: &session)
        session.summary.updated = session.updated.count
        session.summary.unchanged = session.storedBefore.count - session.updated.count
    }

    /// Each key counts once, at its first copy in the fetch; every later copy is a repeat.
    private func count(_ id: String, before start: FetchModel, session: inout Session) {
        guard session.seen.insert(id).inserted else {
            session.summary.repeated += 1
            return
        }
        if start.photos[id] == nil { session.summary.inserted += 1 } else { session.storedBefore.insert(id) }
    }

    /// Photographers: a stored one takes the winning owner id unless the store wins; a new one is
    /// created only for a photo this page writes; one left without photos goes.
    private mutating func saveOwners(_ ownerIDs: [String: String], linked: Set<String>, firstWins: Bool, session: inout Session) {
        for (name, ownerID) in ownerIDs {
            if owners[name] != nil {
                if !firstWins { owners[name] = ownerID }
            } else if linked.contains(name) {
                owners[name] = ownerID
                session.summary.photographersInserted += 1
            }
        }
        let withPhotos = Set(photos.values.map(\.photographer))
        for name in owners.keys where !withPhotos.contains(name) {
            owners[name] = nil
            session.summary.photographersRemoved += 1
        }
    }
}
