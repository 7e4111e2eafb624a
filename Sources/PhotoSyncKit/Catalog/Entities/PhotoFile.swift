import Foundation
import GraphStore

/// A photo's image file: what its verified download is (so every host's copy can be checked
/// against it), or why there is none yet. Its own entity, keyed by the photo id, so the `Photo`
/// table is left as it was and a catalog of model 6 migrates by gaining one table.
///
/// A row with an empty `sha256` is no file: `unavailableStatus` and `retryAfter` say why and when to
/// try again. `path` is relative to the files folder (each host has its own; see ``FileLayout``).
final class PhotoFile: ManagedObject {
    /// Bookkeeping, not catalog content: `changes` never shows it, so history does not keep it.
    override class var keepsHistory: Bool { false }
    @Attribute(.unique) var photo = ""
    @Attribute var path = ""
    @Attribute var size = 0
    @Attribute var sha256 = ""
    @Attribute var sizeLabel = ""
    @Attribute var contentType = ""
    @Attribute var downloaded: Date? = nil
    /// The HTTP status (404, 410, 403) or 0 for content that was not an image.
    @Attribute var unavailableStatus = 0
    @Attribute var unavailableReason: String? = nil
    @Attribute var unavailableSince: Date? = nil
    /// Refusals in a row: the back-off doubles with each.
    @Attribute var refusals = 0
    /// Not tried again before this (a day after the first refusal, doubling).
    @Attribute var retryAfter: Date? = nil

    var isVerified: Bool { !sha256.isEmpty }
}
