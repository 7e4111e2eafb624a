import Foundation
import PhotoFeed

/// Where a source's cut walk stopped, and where its catch up ends (issue 25, stored as
/// ``SourceBackfill``). A fetch that stops at its page limit with pages left leaves one; later
/// fetches take what is new first, then continue here within the same page limit, until a page
/// reaches a photo stored before the cut walk began (the ``floor``) or the feed ends.
///
/// The feed shifts between runs, so the page to resume at is found by the photos already stored:
/// the new photos a fetch met on top before a known page shift the unfinished part down by as
/// many. The page expected to follow the ``anchorID`` is asked for; if it lies wholly past the
/// anchor while the feed's `total` grew less than by the new photos (some left the feed, the
/// unfinished part may have moved up), the walk steps a page back until a page reaches the anchor.
struct Backfill: Equatable {
    /// Feed items up to and including the anchor, as the feed stood at the last run (a hint).
    var offset: Int
    /// The feed's `total` as the last page saved reported it, plus the new photos met since.
    var total: Int
    var anchorID: String
    var anchorUploaded: Date?
    var floor: Date?
    var began: Date

    /// The state a walk cut after `pages` pages of `perPage` leaves, ending at `last`: the catch up
    /// ends at `floor`, the newest upload stored before the walk (nil: at the feed's end).
    init(cutAfter pages: Int, perPage: Int, total: Int, last: WalkTally.Position, floor: Date?, began: Date) {
        (offset, self.total, anchorID, anchorUploaded, self.floor, self.began) = (pages * perPage, total, last.id, last.uploaded, floor, began)
    }

    init(offset: Int, total: Int, anchorID: String, anchorUploaded: Date?, floor: Date?, began: Date) {
        (self.offset, self.total, self.anchorID, self.anchorUploaded) = (offset, total, anchorID, anchorUploaded)
        (self.floor, self.began) = (floor, began)
    }

    /// The page expected to follow the anchor (to begin with the item at `offset`).
    func resumePage(perPage: Int) -> Int { max(1, offset / max(1, perPage) + 1) }

    /// Shifts the unfinished part down by `newPhotos` met on top of the feed.
    mutating func shift(by newPhotos: Int) { (offset, total) = (offset + newPhotos, total + newPhotos) }

    /// Whether `page`, asked for as page `number`, may lie past photos not yet seen: it is not that
    /// page (past the feed's end), or it lies wholly past the anchor while the feed's total grew
    /// less than the new photos met (some photos left the feed: the unfinished part moved up).
    func misplaces(_ page: FeedPage, asked number: Int) -> Bool {
        page.page != number || (overshoots(page) && page.total < total)
    }

    /// Whether `page` lies past the anchor: every photo on it older than the anchor and the anchor
    /// not among them. Without upload times nothing can be told: the hint is trusted.
    func overshoots(_ page: FeedPage) -> Bool {
        guard let anchorUploaded, !page.photos.contains(where: { $0.id == anchorID }) else { return false }
        let times = page.photos.compactMap(\.uploaded)
        return !times.isEmpty && times.allSatisfy { $0 < anchorUploaded }
    }

    /// Whether `page` holds a photo uploaded no later than the floor: the rest of the feed was
    /// stored before the cut walk began.
    func reachesFloor(_ page: FeedPage) -> Bool { Self.reaches(floor, page) }

    /// Whether `page` holds a photo uploaded no later than `floor` (never, for no floor).
    static func reaches(_ floor: Date?, _ page: FeedPage) -> Bool {
        guard let floor else { return false }
        return page.photos.contains { $0.uploaded.map { $0 <= floor } ?? false }
    }

    /// Moves the resume point past page `number` of `perPage` (of the feed's `total`), whose last
    /// photo was `last`.
    mutating func advance(past number: Int, perPage: Int, total: Int, last: WalkTally.Position?) {
        (offset, self.total) = (number * perPage, total)
        if let last { (anchorID, anchorUploaded) = (last.id, last.uploaded) }
    }
}
