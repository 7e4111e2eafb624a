/// Builds a page's photo list from its raw elements, in element order. An id that appears twice
/// stays twice: which copy wins is the importer's merge policy to decide, as for an id repeated on
/// a later page. Counts add up: `photos.count + skipped.count == photo array length`.
enum PageAssembler {
    static func assemble(_ items: [RawPhotoItem]) -> (photos: [FeedPhoto], skipped: [SkippedItem], notes: [SkippedItem]) {
        var photos: [FeedPhoto] = []
        photos.reserveCapacity(items.count)
        var (skipped, notes): ([SkippedItem], [SkippedItem]) = ([], [])
        var itemNotes: [String] = []
        for (index, item) in items.enumerated() {
            itemNotes.removeAll(keepingCapacity: true)
            switch PhotoItemRules.photo(from: item, notes: &itemNotes) {
            case .success(let photo): photos.append(photo)
            case .failure(let reason): skipped.append(SkippedItem(index: index, reason: "photo \(index): \(reason.text)"))
            }
            notes += itemNotes.map { SkippedItem(index: index, reason: "photo \(index): \($0)") }
        }
        return (photos, skipped, notes)
    }
}
