import PhotoFeed

/// The keys of a feed page the importer looks up, worked out from the page alone, so that the
/// thread that downloads and decodes the next page computes them while the current one is saved.
struct PageKeys: Sendable {
    /// Each owner name's owner id as the page gives it (its first photo's): one Photographer per name.
    let ownerIDs: [String: String]
    /// Each photo id's index in the page, for ids that occur once (an id twice in a page is left
    /// to the merge policy).
    let positions: [String: Int]

    init(_ page: FeedPage) {
        var ownerIDs: [String: String] = [:]
        var positions: [String: Int] = [:]
        positions.reserveCapacity(page.photos.count)
        var repeated: Set<String> = []
        for (index, item) in page.photos.enumerated() {
            if ownerIDs[item.ownerName] == nil { ownerIDs[item.ownerName] = item.ownerID }
            if positions.updateValue(index, forKey: item.id) != nil { repeated.insert(item.id) }
        }
        for id in repeated { positions[id] = nil }
        (self.ownerIDs, self.positions) = (ownerIDs, positions)
    }
}

/// A decoded page with its keys.
struct PreparedPage: Sendable {
    let page: FeedPage
    let keys: PageKeys

    init(_ page: FeedPage) {
        self.page = page
        keys = PageKeys(page)
    }
}
