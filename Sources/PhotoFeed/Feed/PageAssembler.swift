/// Builds a page's photo list from its raw elements, in element order. An id that appears twice
/// stays twice: which copy wins is the importer's merge policy to decide, as for an id repeated on
/// a later page. Counts add up: `photos.count + skipped.count == photo array length`.
enum PageAssembler {
    static func assemble(_ items: [RawPhotoItem]) -> (photos: [FeedPhoto], skipped: [SkippedItem]) {
        var photos: [FeedPhoto] = []
        photos.reserveCapacity(items.count)
        var skipped: [SkippedItem] = []
        for (index, item) in items.enumerated() {
            switch PhotoItemRules.photo(from: item) {
            case .success(let photo): photos.append(photo)
            case .failure(let reason): skipped.append(SkippedItem(index: index, reason: "photo \(index): \(reason.text)"))
            }
        }
        return (photos, skipped)
    }
}
