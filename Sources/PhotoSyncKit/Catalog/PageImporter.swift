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
        let page = prepared.page
        let context = container.newContext(mergePolicy: policy)
        let stored = try StoredCopies(of: page, keys: prepared.keys, policy: policy, in: context)
        let changed = zip(page.photos, stored.isStored).filter { !$0.1 }.map(\.0)
        var photographers = try Self.photographers(for: changed, prepared.keys.ownerIDs, stored, in: context)
        for item in changed {
            let photo = context.insert(Photo.self)
            photo.unique = item.id
            photo.title = item.title
            photo.subtitle = item.subtitle
            photo.imageURL = item.imageURL
            photo.uploaded = item.uploaded
            photo.whoTook = photographers.object(item.ownerName)
        }
        guard context.hasChanges else { return Self.summary(of: page, ChangeSet()) }
        return Self.summary(of: page, try save(context, dryRun: dryRun))
    }

    /// The page's photographers as the save needs them. New names are inserted. A stored one whose
    /// owner id the page changes gets the page's (what an object-trump merge would write): fetched
    /// and assigned when a photo to save points at it, else updated by row without loading it.
    private static func photographers(
        for changed: [FeedPhoto], _ ownerIDs: [String: String], _ stored: StoredCopies, in context: ObjectContext
    ) throws -> PageObjects {
        var objects = PageObjects(context: context, ownerIDs: ownerIDs)
        let needed = Set(changed.map(\.ownerName))
        let fetched = stored.stalePhotographers.keys.filter { needed.contains($0) }
        if !fetched.isEmpty {
            for existing in try context.fetch(FetchRequest<Photographer>(predicate: .isIn(\.$name, fetched))) {
                existing.ownerID = ownerIDs[existing.name]!
                objects.known[existing.name] = existing
            }
        }
        let ownerIDKey = \Photographer.$ownerID
        for (name, id) in stored.stalePhotographers where !needed.contains(name) {
            context.update(id, .set(ownerIDKey, to: ownerIDs[name]!))
        }
        for name in ownerIDs.keys where !stored.photographers.contains(name) && stored.stalePhotographers[name] == nil {
            _ = objects.object(name)
        }
        return objects
    }

    private func save(_ context: ObjectContext, dryRun: Bool) throws -> ChangeSet {
        if dryRun { return try context.previewSave() }
        var saved = ChangeSet()
        context.onDidSave { saved = $0 }
        try context.save()
        return saved
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

/// One Photographer object per name for a page's save: known ones, or inserted with the page's
/// owner id for the name (the merge policy reconciles an inserted one with a stored row).
private struct PageObjects {
    let context: ObjectContext
    let ownerIDs: [String: String]
    var known: [String: Photographer] = [:]

    mutating func object(_ name: String) -> Photographer {
        if let photographer = known[name] { return photographer }
        let photographer = context.insert(Photographer.self)
        photographer.name = name
        photographer.ownerID = ownerIDs[name]!
        known[name] = photographer
        return photographer
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
