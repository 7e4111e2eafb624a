import GraphStore

/// Model 8's title sort keys for the photos a catalog held before it (the migration adds the
/// column empty): filled at the first writable open, in chunks, each its own transaction.
///
/// Every writable open looks for a photo without a key (a fill can be interrupted): one query
/// that scans the table when all keys are there (no index: that would cost every import).
extension Catalog {
    static let titleKeyChunk = 20_000

    /// Fills the missing keys. An interrupted fill leaves the rest missing; the next writable open
    /// goes on (until then, a listing by title shows those photos out of order).
    static func fillTitleKeys(_ context: ObjectContext) throws {
        while true {
            let photos = try context.fetchColumns(FetchRequest<Photo>(predicate: \.$titleKey == nil, limit: titleKeyChunk), [\.$title])
            guard !photos.ids.isEmpty else { return }
            for (id, title) in zip(photos.ids, try photos.values(\.$title)) {
                context.update(id, .set(\Photo.$titleKey, to: TextFolding.sortKey(title)))
            }
            try context.save()
        }
    }
}
