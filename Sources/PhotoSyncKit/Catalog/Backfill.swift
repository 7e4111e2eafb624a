import Foundation
import PhotoFeed

/// Where a source's cut walk stopped, and where its catch up ends (issue 25, stored as
/// ``SourceBackfill``). A fetch that stops at its page limit with pages left leaves one; later
/// fetches take what is new first, then continue here within the same page limit, until a page
/// reaches a photo stored before the cut walk began (the ``floor``) or the feed ends.
///
/// The feed shifts between runs (new photos on top), so the page to resume at is found by the
/// photos already stored: the page expected to hold the ``anchorID`` is asked for, and one that
/// lies wholly past it (older, anchor absent: photos between may be unseen) sends the walk a page back.
struct Backfill: Equatable {
    /// Feed items up to and including the anchor, as the feed stood at the last run (a hint).
    var offset: Int
    var anchorID: String
    var anchorUploaded: Date?
    var floor: Date?
    var began: Date

    /// The state a walk cut after `pages` pages of `perPage` leaves, ending at `last`: the catch up
    /// ends at `floor`, the newest upload stored before the walk (nil: at the feed's end).
    init(cutAfter pages: Int, perPage: Int, last: WalkTally.Position, floor: Date?, began: Date) {
        (offset, anchorID, anchorUploaded, self.floor, self.began) = (pages * perPage, last.id, last.uploaded, floor, began)
    }

    init(offset: Int, anchorID: String, anchorUploaded: Date?, floor: Date?, began: Date) {
        (self.offset, self.anchorID, self.anchorUploaded, self.floor, self.began) = (offset, anchorID, anchorUploaded, floor, began)
    }

    /// The page expected to hold the anchor (the item at `offset - 1`).
    func resumePage(perPage: Int) -> Int { max(1, (offset - 1) / max(1, perPage) + 1) }

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

    /// Moves the resume point past page `number` of `perPage`, whose last photo was `last`.
    mutating func advance(past number: Int, perPage: Int, last: WalkTally.Position?) {
        offset = number * perPage
        if let last { (anchorID, anchorUploaded) = (last.id, last.uploaded) }
    }
}
