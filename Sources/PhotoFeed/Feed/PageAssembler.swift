/// Builds a page's photo list from its raw elements. When one id appears twice in a page,
/// the last occurrence wins — the same rule an upsert applies across pages, so a page
/// reads as if its elements were stored in order — and each earlier one is reported as
/// skipped, so counts still add up: `photos.count + skipped.count == photo array length`.
enum PageAssembler {
    static func assemble(_ items: [RawPhotoItem]) -> (photos: [FeedPhoto], skipped: [SkippedItem]) {
        var candidates: [(index: Int, photo: FeedPhoto)] = []
        candidates.reserveCapacity(items.count)
        var lastIndexByID: [String: Int] = [:]
        lastIndexByID.reserveCapacity(items.count)
        var skipped: [SkippedItem] = []
        for (index, item) in items.enumerated() {
            switch PhotoItemRules.photo(from: item) {
            case .success(let photo):
                candidates.append((index, photo))
                lastIndexByID[photo.id] = index
            case .failure(let reason):
                skipped.append(SkippedItem(index: index, reason: "photo \(index): \(reason.text)"))
            }
        }
        guard lastIndexByID.count < candidates.count else { return (candidates.map(\.photo), skipped) }
        return dropEarlierDuplicates(candidates, lastIndexByID: lastIndexByID, skipped: skipped)
    }

    private static func dropEarlierDuplicates(
        _ candidates: [(index: Int, photo: FeedPhoto)], lastIndexByID: [String: Int], skipped: [SkippedItem]
    ) -> (photos: [FeedPhoto], skipped: [SkippedItem]) {
        var photos: [FeedPhoto] = []
        var skipped = skipped
        for (index, photo) in candidates {
            let kept = lastIndexByID[photo.id] ?? index
            if kept == index {
                photos.append(photo)
            } else {
                skipped.append(SkippedItem(index: index, reason: "photo \(index): duplicate id \(photo.id) in page (photo \(kept) kept)"))
            }
        }
        skipped.sort { $0.index < $1.index }
        return (photos, skipped)
    }
}
