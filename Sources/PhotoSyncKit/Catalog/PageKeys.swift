import GraphStore
import PhotoFeed

/// The keys of a feed page the importer looks up, worked out from the page alone, so that the
/// thread that downloads and decodes the next page computes them while the current one is saved.
///
/// Owner names are numbered once here; the saving thread then works with those numbers and never
/// hashes a name again (hashing non-ASCII text was a few percent of a save).
struct PageKeys: Sendable {
    /// The page's owner names, each once, in order of first appearance: one Photographer per name.
    let names: [String]
    /// Each name's owner id as the page gives it (its first photo's), in `names` order.
    let ownerIDs: [String]
    /// Each photo's owner, as an index into `names`.
    let owners: [Int]
    /// Each name's index. Names are told apart byte for byte, as the catalog's unique index does
    /// ("é" precomposed and decomposed are two photographers), hence `StoredValue` keys.
    let nameIndex: [StoredValue: Int]
    /// Each photo id's index in the page, for ids that occur once (an id twice in a page is left
    /// to the merge policy).
    let positions: [String: Int]

    init(_ page: FeedPage) {
        var names: [String] = [], ownerIDs: [String] = [], owners: [Int] = []
        var nameIndex: [StoredValue: Int] = [:]
        var positions: [String: Int] = [:]
        owners.reserveCapacity(page.photos.count)
        positions.reserveCapacity(page.photos.count)
        var repeated: Set<String> = []
        for (index, item) in page.photos.enumerated() {
            let key = StoredValue.text(item.ownerName)
            if let owner = nameIndex[key] {
                owners.append(owner)
            } else {
                nameIndex[key] = names.count
                owners.append(names.count)
                names.append(item.ownerName)
                ownerIDs.append(item.ownerID)
            }
            if positions.updateValue(index, forKey: item.id) != nil { repeated.insert(item.id) }
        }
        for id in repeated { positions[id] = nil }
        (self.names, self.ownerIDs, self.owners, self.nameIndex, self.positions) = (names, ownerIDs, owners, nameIndex, positions)
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
