import PhotoFeed

/// Which pages a fetch asks for, the way Flickr pages (see shared/reference, section 6):
/// - asked for a page past the end, the API answers with its last page again, so a response whose
///   own `page` is not the one asked for (or lies past `pages`) ends the walk and is not saved;
/// - `pages` changes while the feed is walked, so every response's `pages` is the latest word;
/// - an empty or short page is not the end while `pages` says there are more.
///
/// A walk may begin past page 1 (a catch up resuming a cut walk, see ``Backfill``): `limit` counts
/// the pages it fetches, whatever their numbers.
struct FeedWalk {
    /// `--pages`, or `max_pages` (less what an earlier walk of the same run fetched).
    let limit: Int
    /// The first page this walk asks for.
    let first: Int
    /// A `file://` document is one response: page 1 only, whatever it says.
    let isSingleDocument: Bool
    /// `pages` as the latest response reported it.
    private(set) var reportedPages = 0
    /// `total` (photos in the feed) as the latest response reported it.
    private(set) var reportedTotal = 0
    /// Pages accepted so far (each saved once).
    private(set) var accepted = 0
    /// Whether an incremental fetch met a page of known photos (the rest of the feed is older).
    private(set) var stoppedAtKnownPage = false
    /// Whether a catch up met a photo stored before its cut walk began (the rest is stored).
    private(set) var reachedFloor = false

    init(limit: Int, isSingleDocument: Bool, first: Int = 1) {
        (self.limit, self.isSingleDocument, self.first) = (max(1, limit), isSingleDocument, max(1, first))
    }

    /// Pages accepted by this walk.
    var fetched: Int { accepted >= first ? accepted - first + 1 : 0 }

    /// Whether `page`, the response to a request for page `number`, is that page: then it is saved.
    mutating func accept(_ page: FeedPage, asked number: Int) -> Bool {
        if isSingleDocument {
            accepted = 1
            return true
        }
        (reportedPages, reportedTotal) = (page.pages, page.total)
        guard page.page == number, number <= max(1, page.pages) else { return false }
        accepted = number
        return true
    }

    /// The page to ask for after page `number` was accepted, or nil when the walk is over.
    func next(after number: Int) -> Int? {
        guard !isSingleDocument, number - first + 1 < limit, number < reportedPages, !reachedFloor else { return nil }
        return number + 1
    }

    /// The pages this walk will ask for as the feed last reported them (the limit until a response says fewer).
    var expectedPages: Int {
        isSingleDocument ? 1 : min(limit, max(accepted, reportedPages))
    }

    /// Ends the walk after page `number`, whose photos were all in the catalog already.
    mutating func stopAtKnownPage(_ number: Int) { stoppedAtKnownPage = true }

    /// Ends a catch up after the page that met a photo stored before its cut walk began.
    mutating func stopAtFloor() { reachedFloor = true }

    /// Whether the walk saved the feed's last page (or the single document): nothing lies beyond.
    var reachedEnd: Bool { isSingleDocument || (accepted > 0 && accepted >= reportedPages) }

    /// Pages the API reports beyond those fetched, when the page limit ended the walk (0 otherwise,
    /// and after a stop at a known page or the floor: what lies beyond it is known).
    var morePages: Int {
        guard !isSingleDocument, !stoppedAtKnownPage, !reachedFloor, fetched >= limit else { return 0 }
        return max(0, reportedPages - accepted)
    }

    /// Pages within the limit not fetched because a page of known photos ended the walk.
    var pagesSkippedKnown: Int {
        stoppedAtKnownPage ? max(0, min(limit, reportedPages) - accepted) : 0
    }
}
