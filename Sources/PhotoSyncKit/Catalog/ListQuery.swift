import Foundation

/// What `list` asks for: filters, order and the window of rows.
public struct ListQuery: Sendable, Equatable {
    /// Exact photographer name (byte for byte, as stored).
    public var photographer: String?
    /// Only photos a fetch of this source stored (``FeedSource/label``).
    public var source: String?
    /// Only photos carrying every one of these tags (normalized as Flickr does, see `TagRule`).
    public var tags: [String] = []
    /// Only photos under this Flickr license id.
    public var license: String?
    /// Text the title or subtitle contains, ignoring case (full Unicode folding: `ß` matches `SS`);
    /// accents stay significant.
    public var search: String?
    /// Upload time bounds, both inclusive; photos with no known upload time never match either.
    public var since: Date?
    public var until: Date?
    /// Only photos a re-check found gone upstream.
    public var gone = false
    public var sort: ListSort = .title
    public var limit: Int?
    public var offset: Int?
    /// Whether listings carry subtitle, image URL and source (left empty otherwise): the table
    /// shows none of them, and a long list read without them sorts a fraction of the bytes.
    public var withDetails = true

    public init(photographer: String? = nil, sort: ListSort = .title, limit: Int? = nil) {
        (self.photographer, self.sort, self.limit) = (photographer, sort, limit)
    }
}
