import Foundation
import GraphStore

/// The unfinished part of a source's walk that a page limit cut (issue 25): later fetches of the
/// source continue it after taking what is new. No row: the source is complete. See ``Backfill``.
final class SourceBackfill: ManagedObject {
    /// Bookkeeping, not catalog content: `changes` never shows it, so history does not keep it.
    override class var keepsHistory: Bool { false }
    /// The source (``FeedSource/identity``).
    @Attribute(.unique) var source = ""
    /// Feed items before the unfinished part, as the last run of the source saw the feed: a hint,
    /// checked against the photos a resumed page holds.
    @Attribute var offset = 0
    /// The feed's `total` when the resume point was recorded (see ``Backfill/total``).
    @Attribute var total = 0
    /// The last photo the walk saved, in feed order: the unfinished part begins right after it.
    @Attribute var anchorID = ""
    @Attribute var anchorUploaded: Date? = nil
    /// The newest upload stored before the cut walk began: meeting a photo no newer ends the catch
    /// up (the rest was stored before). Nil: the catch up goes on to the feed's end.
    @Attribute var floor: Date? = nil
    /// When the cut walk began (for `status`).
    @Attribute var began = Date(timeIntervalSince1970: 0)
}
