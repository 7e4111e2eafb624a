#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A photo as the feed describes it, already normalised by the title, owner and URL rules,
/// so nothing downstream has to know Flickr's JSON quirks.
public struct FeedPhoto: Sendable, Equatable {
    /// Flickr photo id: 1–64 ASCII letters or digits.
    public var id: String
    /// Trimmed title; the description when the title is blank; "Unknown" when both are. At most 64 KiB.
    public var title: String
    /// Trimmed description, or "" when it was promoted to the title.
    public var subtitle: String
    /// `url_l`, or the 1024px static URL built from `server` and `secret`.
    public var imageURL: String
    /// From `dateupload` (unix seconds); nil when absent, not a number, or outside 1970–2099.
    public var uploaded: Date?
    /// The owner's NSID (`owner`); the owner name when Flickr sent no NSID, so it is never empty.
    public var ownerID: String
    /// Trimmed `ownername`; the owner id when the name is blank, so it is never empty. At most 1 KiB.
    public var ownerName: String
    /// License, date taken, geo, last update, views and media (see ``PhotoMetadata``).
    public var metadata = PhotoMetadata()

    public init(
        id: String, title: String, subtitle: String, imageURL: String,
        uploaded: Date?, ownerID: String, ownerName: String
    ) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.imageURL = imageURL
        self.uploaded = uploaded
        self.ownerID = ownerID
        self.ownerName = ownerName
    }
}
