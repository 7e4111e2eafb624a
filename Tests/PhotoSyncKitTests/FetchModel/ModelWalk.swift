@testable import PhotoSyncKit

/// Where the unfinished part of a cut walk begins, as the README's "Catching up" describes it: the
/// last photo saved and its place in the feed (`perPage` items a page, whatever a page held), the
/// feed's `total` then, and the newest upload stored before the cut walk began.
struct ModelBackfill: Equatable {
    var offset: Int
    var total: Int
    var anchor: (id: String, uploaded: Int?)
    var floor: Int?

    static func == (a: Self, b: Self) -> Bool {
        (a.offset, a.total, a.anchor.id, a.anchor.uploaded, a.floor) == (b.offset, b.total, b.anchor.id, b.anchor.uploaded, b.floor)
    }
}

/// One fetch played through the model: the walk of what is new, then the catch up of an earlier
/// cut walk within the same page limit. The feed answers a page past its end with its last page,
/// as Flickr does; every page reports `total` = 100 per page (ModelFeed).
struct ModelWalk {
    static let perPage = 100
    let fetch: ModelFetch
    /// The catalog as the fetch judges it: as it began, with the renames of pages saved so far.
    var start: FetchModel
    var work: FetchModel
    var session = FetchModel.Session()
    /// The newest upload and the last photo (in feed order) of the pages saved.
    var newest: Int?
    var last: (id: String, uploaded: Int?)?
    /// The catch up state as the catalog records it after each page.
    var recorded: ModelBackfill?

    init(fetch: ModelFetch, start: FetchModel) {
        (self.fetch, self.start, work, recorded) = (fetch, start, start, start.backfill)
    }

    var count: Int { fetch.pages.count }

    /// Plays the fetch; nil when it completes, else the failure or conflict that ended it.
    mutating func run() -> FetchModel.Outcome? {
        let incremental = start.lastRunCompleted && !fetch.full
        let floor = start.backfill.map(\.floor) ?? start.mark
        var (number, stoppedAtKnown, reachedFloor) = (0, false, false)
        while number < min(fetch.limit, count), !stoppedAtKnown {
            number += 1
            if fetch.failAt == number { return .failed }
            let saved = save(number, incremental: incremental)
            guard case .saved(let known) = saved else { return saved.conflict }
            (stoppedAtKnown, reachedFloor) = (known, reachedFloor || Self.reaches(floor, fetch.pages[number - 1]))
        }
        let summary = session.summary
        session.summary.morePages = stoppedAtKnown ? 0 : max(0, count - fetch.limit)
        session.summary.pagesSkippedKnown = stoppedAtKnown ? max(0, min(fetch.limit, count) - number) : 0
        session.summary.gap = start.hadSuccessfulFetch && !stoppedAtKnown && summary.unchanged + summary.updated + summary.excluded == 0
        if number >= count || reachedFloor {
            recorded = nil
        } else if session.summary.morePages > 0, let last {
            recorded = ModelBackfill(offset: number * Self.perPage, total: count * Self.perPage, anchor: last, floor: floor)
        } else if var plan = start.backfill {
            (plan.offset, plan.total) = (plan.offset + summary.inserted, plan.total + summary.inserted)
            recorded = plan
            return catchUp(plan, calls: fetch.limit - number)
        }
        return nil
    }

    /// The unfinished part, resumed where the photos say (a page wholly past the anchor, while the
    /// feed's total says photos left it, sends the walk a page back), then walked until a page
    /// reaches the floor or the feed ends, within `calls` requests.
    private mutating func catchUp(_ plan: ModelBackfill, calls: Int) -> FetchModel.Outcome? {
        guard calls > 0 else { return nil }
        var plan = plan
        var (number, used) = (plan.offset / Self.perPage + 1, 0)
        while true {
            used += 1
            if fetch.failAt == number { return .failed }
            let served = min(number, count)
            let misplaced = served != number || (overshoots(fetch.pages[served - 1], plan) && count * Self.perPage < plan.total)
            if !misplaced || number == 1 { break }
            number = served != number ? max(1, min(number - 1, count)) : number - 1
            if used == calls {
                plan.offset = (number - 1) * Self.perPage
                recorded = plan
                return nil
            }
        }
        let head = session.summary
        let limit = calls - used + 1
        var walked = 0
        while true {
            walked += 1
            let saved = save(number, incremental: false)
            guard case .saved = saved else { return saved.conflict }
            session.summary.backfillPages += 1
            let reachedFloor = Self.reaches(plan.floor, fetch.pages[number - 1])
            (plan.offset, plan.total) = (number * Self.perPage, count * Self.perPage)
            if let last { plan.anchor = last }
            recorded = reachedFloor || number >= count ? nil : plan
            keepHead(head)
            if reachedFloor || number >= count { return nil }
            if walked >= limit {
                session.summary.morePages = count - number
                return nil
            }
            number += 1
            if fetch.failAt == number { return .failed }
        }
    }

    enum Saved {
        case saved(known: Bool), conflict(Set<String>)
        var conflict: FetchModel.Outcome? { if case .conflict(let keys) = self { .conflict(keys, total: keys.count) } else { nil } }
    }

    /// Page `number` saved through the session (or its conflict under `error`).
    private mutating func save(_ number: Int, incremental: Bool) -> Saved {
        let page = fetch.pages[number - 1]
        let usable = page.filter(\.isUsable)
        if fetch.policy == .objectTrump, !fetch.dryRun {
            for (old, new) in work.renames(for: usable) {
                (work.rename(old, to: new), start.rename(old, to: new))
                session.summary.photographersRenamed += 1
            }
        }
        let kept = usable.filter { !start.excludes($0) }
        if fetch.policy == .error, case let keys = start.conflicts(kept), !keys.isEmpty { return .conflict(keys) }
        let known = incremental && FetchModel.isKnown(kept, excluded: usable.count - kept.count, policy: fetch.policy, before: start, session: session)
        work.save(kept, policy: fetch.policy, before: start, session: &session)
        session.summary.pages += 1
        session.summary.received += page.count
        session.summary.skipped += page.count - usable.count
        session.summary.excluded += usable.count - kept.count
        newest = ([newest] + usable.map(\.uploaded)).compactMap { $0 }.max()
        if let item = usable.last { last = (item.id, item.uploaded) }
        return .saved(known: known)
    }

    /// During the catch up the summary keeps the head walk's `pages_skipped_known` and gap.
    private mutating func keepHead(_ head: FetchSummary) {
        (session.summary.pagesSkippedKnown, session.summary.gap, session.summary.morePages) = (head.pagesSkippedKnown, head.gap, 0)
    }

    /// Whether `page` holds a photo uploaded no later than `floor`.
    static func reaches(_ floor: Int?, _ page: [ModelItem]) -> Bool {
        guard let floor else { return false }
        return page.contains { $0.isUsable && ($0.uploaded.map { $0 <= floor } ?? false) }
    }

    /// Whether `page` lies wholly past the anchor: the anchor not on it, and every upload time on it older.
    private func overshoots(_ page: [ModelItem], _ plan: ModelBackfill) -> Bool {
        guard let anchor = plan.anchor.uploaded, !page.contains(where: { $0.isUsable && $0.id == plan.anchor.id }) else { return false }
        let times = page.filter(\.isUsable).compactMap(\.uploaded)
        return !times.isEmpty && times.allSatisfy { $0 < anchor }
    }
}
