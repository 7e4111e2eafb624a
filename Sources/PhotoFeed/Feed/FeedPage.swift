/// One decoded page of the recent-photos feed: the paging counters as Flickr sent them,
/// the photos that could be used, and the items that could not (so a caller can report them).
public struct FeedPage: Sendable, Equatable {
    public var page: Int
    public var pages: Int
    public var perPage: Int
    public var total: Int
    public var photos: [FeedPhoto]
    public var skipped: [SkippedItem]
    /// Photos kept without a value the feed sent unusable (an upload date outside 1970–2099 is
    /// stored as unknown), each with the reason.
    public var notes: [SkippedItem]

    public init(
        page: Int, pages: Int, perPage: Int, total: Int, photos: [FeedPhoto], skipped: [SkippedItem] = [], notes: [SkippedItem] = []
    ) {
        self.page = page
        self.pages = pages
        self.perPage = perPage
        self.total = total
        self.photos = photos
        self.skipped = skipped
        self.notes = notes
    }
}
