import PhotoSyncTestSupport

@testable import PhotoSyncKit

/// Random command sequences for one merge policy, from one seed. The generator keeps its own
/// model of the catalog only to aim deletes and restores at what is there (and now and then at
/// what is not, for the all-or-nothing refusals).
struct SequenceGenerator {
    let policy: MergePolicyChoice
    private var random: SeededRandom
    private var world: FeedWorld
    private var model = FetchModel()
    /// The same fetch for real, after its dry run: both must report the same.
    private var realRun: ModelFetch?
    /// What the generated steps exercise, by the model's predictions.
    private(set) var coverage = ModelCoverage()
    /// The last fetch generated, and the upload time of the newest photo pushed onto its head.
    private var last: ModelFetch?
    private var clock = 1_700_000_100

    init(policy: MergePolicyChoice, seed: UInt64, coverage: ModelCoverage = ModelCoverage()) {
        (self.policy, self.coverage) = (policy, coverage)
        random = SeededRandom(seed: seed)
        world = FeedWorld(random: &random)
    }

    mutating func steps(_ count: Int) -> [ModelStep] {
        (0..<count).map { _ in
            let step = nextStep()
            let expected = model.apply(step)
            coverage.note(step, expected.outcome, run: expected.run)
            return step
        }
    }

    private mutating func nextStep() -> ModelStep {
        if var fetch = realRun {
            (fetch.dryRun, realRun) = (false, nil)
            return .fetch(fetch)
        }
        switch random.int(0...99) {
        case 0..<70:
            let fetch = last != nil && random.chance(0.35) ? continued(last!) : random.chance(0.1) ? burst() : fetch()
            last = fetch
            if fetch.dryRun && random.chance(0.5) { realRun = fetch }
            return .fetch(fetch)
        case 70..<80: return .deletePhotos(someOf(model.photos.keys.sorted(), else: world.ids), remembering: !random.chance(0.2),
                                           dryRun: random.chance(0.2))
        case 80..<87: return .deletePhotographer(oneOf(model.owners.keys.sorted(), else: world.ownerNames),
                                                 remembering: !random.chance(0.2), dryRun: random.chance(0.2))
        case 87..<94: return .restorePhotos(someOf(model.excludedIDs.keys.sorted(), else: world.ids))
        default: return .restorePhotographer(oneOf(model.excludedNames.keys.sorted(), else: world.ownerNames))
        }
    }

    /// 1 to 4 pages of up to 7 items: photos the feed knows, new ones, and copies of items already
    /// sent in this fetch (the feed shifting under the walk), some of them changed meanwhile.
    private mutating func fetch() -> ModelFetch {
        for _ in 0..<random.int(0...3) { world.change(random: &random) }
        // Under `error`, most fetches bring only new photos by new owners: anything stored before conflicts.
        let onlyNew = policy == .error && random.chance(0.75)
        var pages: [[ModelItem]] = []
        var sent: [ModelItem] = []
        for _ in 0..<random.pick([1, 1, 2, 2, 3, 4]) {
            var page: [ModelItem] = []
            for _ in 0..<random.int(0...7) {
                let item = nextItem(onlyNew: onlyNew, sent: sent)
                page.append(item)
                sent.append(item)
            }
            pages.append(page)
            if !onlyNew && random.chance(0.3) { world.change(random: &random) }
        }
        let limit = random.chance(0.15) ? random.int(1...pages.count) : pages.count + random.int(0...1)
        // Now and then a fetch under another policy: a user may switch between fetches.
        let policy = random.chance(0.1) ? random.pick(MergePolicyChoice.allCases) : policy
        // Incremental fetches are the default (what cron runs); now and then --full, or a walk that
        // fails at a page (the server refuses it), after which the next fetch walks to its limit.
        let failAt = random.chance(0.1) ? random.int(1...pages.count) : nil
        return ModelFetch(pages: pages, limit: limit, policy: policy, dryRun: random.chance(0.2), full: random.chance(0.2), failAt: failAt)
    }

    /// The last fetch's feed again, as cron meets it: up to 3 new photos, newer than any before,
    /// pushed onto its head (the rest moves down a page), the same page limit; the walks a limit
    /// cut are then caught up (README, "Catching up").
    private mutating func continued(_ last: ModelFetch) -> ModelFetch {
        let top = (0..<random.int(0...3)).map { _ in
            clock += 1
            let id = world.newPhoto(newOwner: random.chance(0.5), random: &random, uploaded: clock)
            return world.item(id)
        }
        let failAt = random.chance(0.05) ? random.int(1...last.pages.count + 1) : nil
        return ModelFetch(pages: [top] + last.pages, limit: last.limit, policy: last.policy, dryRun: random.chance(0.15),
                          full: random.chance(0.05), failAt: failAt)
    }

    /// 2 to 4 pages of photos newer than any before, newest first, cut by the page limit: what a
    /// busy hour leaves for the next cron runs to catch up on.
    private mutating func burst() -> ModelFetch {
        let sizes = (0..<random.int(2...4)).map { _ in random.int(1...4) }
        clock += sizes.reduce(0, +)
        var time = clock
        let pages = sizes.map { size in
            (0..<size).map { _ in
                time -= 1
                let id = world.newPhoto(newOwner: policy == .error || random.chance(0.5), random: &random, uploaded: time + 1)
                return world.item(id)
            }
        }
        return ModelFetch(pages: pages, limit: random.int(1...pages.count - 1), policy: policy, dryRun: random.chance(0.1))
    }

    private mutating func nextItem(onlyNew: Bool, sent: [ModelItem]) -> ModelItem {
        if random.chance(0.01) { return skippedItem() }
        if !sent.isEmpty && random.chance(0.3) { return random.chance(0.4) ? shifted(random.pick(sent), among: sent) : random.pick(sent) }
        if onlyNew || random.chance(0.1) {
            let id = world.newPhoto(newOwner: onlyNew || random.chance(0.5), random: &random)
            return world.item(id)
        }
        return world.item(random.pick(world.ids))
    }

    /// A copy of `item` sent again with another owner (one of this fetch's), title or date.
    private mutating func shifted(_ item: ModelItem, among sent: [ModelItem]) -> ModelItem {
        var copy = item
        switch random.int(0...2) {
        case 0:
            let other = random.pick(sent)
            (copy.ownerID, copy.ownerName) = (other.ownerID, other.ownerName)
        case 1: copy.title = random.pick(FeedWorld.titles)
        default: copy.uploaded = copy.uploaded.map { $0 + 60 } ?? 1_700_000_000
        }
        return copy
    }

    /// An item the feed decoder skips (its id is not letters and digits).
    private mutating func skippedItem() -> ModelItem {
        var item = world.item(random.pick(world.ids))
        item.id = "x-\(item.id)"
        return item
    }

    /// Usually a few of `present`, sometimes one of `other` that may be absent.
    private mutating func someOf(_ present: [String], else other: [String]) -> [String] {
        guard !present.isEmpty, !random.chance(0.15) else { return [random.pick(other)] }
        return (0..<random.int(1...3)).map { _ in random.pick(present) }
    }

    private mutating func oneOf(_ present: [String], else other: [String]) -> String {
        guard !present.isEmpty, !random.chance(0.15) else { return random.pick(other) }
        return random.pick(present)
    }
}
