import GraphStore
import PhotoFeed

/// Saves one feed page the Core Data way: insert new objects (one Photographer per distinct name)
/// and let the unique constraints and the merge policy reconcile them with stored rows at save.
/// What the catalog already holds exactly is left out first (Core Data's "find or create": two
/// batched reads per page, and no object for what would not change).
struct PageImporter {
    let container: PersistentContainer
    let policy: MergePolicy

    /// Saves `page` in one transaction and returns its counts. With `dryRun`, computes the same
    /// counts in a transaction that is rolled back. What the catalog already holds exactly is left
    /// out (see ``StoredCopies``); a page of nothing else is not saved at all.
    func importPage(_ prepared: PreparedPage, dryRun: Bool = false) throws -> FetchSummary {
        let (page, ownerIDs) = (prepared.page, prepared.keys.ownerIDs)
        let context = container.newContext(mergePolicy: policy)
        let stored = try StoredCopies(of: page, keys: prepared.keys, policy: policy, in: context)
        var photographers: [String: Photographer] = [:]
        func photographer(_ name: String) -> Photographer {
            if let known = photographers[name] { return known }
            let photographer = context.insert(Photographer.self)
            photographer.name = name
            photographer.ownerID = ownerIDs[name]!
            photographers[name] = photographer
            return photographer
        }
        // A stored photographer whose owner id the page changes is updated in place: what an
        // object-trump merge would do, without inserting a duplicate to merge.
        if !stored.stalePhotographers.isEmpty {
            for existing in try context.fetch(FetchRequest<Photographer>(predicate: .isIn(\.$name, Array(stored.stalePhotographers)))) {
                existing.ownerID = ownerIDs[existing.name]!
                photographers[existing.name] = existing
            }
        }
        for (name, _) in ownerIDs where !stored.photographers.contains(name) { _ = photographer(name) }
        for (item, isStored) in zip(page.photos, stored.isStored) where !isStored {
            let photo = context.insert(Photo.self)
            photo.unique = item.id
            photo.title = item.title
            photo.subtitle = item.subtitle
            photo.imageURL = item.imageURL
            photo.uploaded = item.uploaded
            photo.whoTook = photographer(item.ownerName)
        }
        guard context.hasChanges else { return Self.summary(of: page, ChangeSet()) }
        let changes: ChangeSet
        if dryRun {
            changes = try context.previewSave()
        } else {
            var saved = ChangeSet()
            context.onDidSave { saved = $0 }
            try context.save()
            changes = saved
        }
        return Self.summary(of: page, changes)
    }

    private static func summary(of page: FeedPage, _ changes: ChangeSet) -> FetchSummary {
        var summary = FetchSummary()
        summary.pages = 1
        summary.received = page.photos.count + page.skipped.count
        summary.skipped = page.skipped.count
        summary.inserted = changes.inserted(Photo.self).count
        summary.updated = changes.updated(Photo.self).count
        summary.unchanged = page.photos.count - summary.inserted - summary.updated
        summary.photographersInserted = changes.inserted(Photographer.self).count
        summary.photographersRemoved = changes.deleted(Photographer.self).count
        return summary
    }
}

extension FetchSummary {
    static func += (total: inout FetchSummary, page: FetchSummary) {
        total.pages += page.pages
        total.received += page.received
        total.inserted += page.inserted
        total.updated += page.updated
        total.unchanged += page.unchanged
        total.skipped += page.skipped
        total.photographersInserted += page.photographersInserted
        total.photographersRemoved += page.photographersRemoved
    }
}
