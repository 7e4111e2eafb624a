import GraphStore
import PhotoFeed

/// Saves one feed page the Core Data way: insert new objects (one Photographer per distinct name)
/// and let the unique constraints and the merge policy reconcile them with stored rows at save.
/// What the catalog already holds exactly is left out first (Core Data's "find or create": two
/// batched reads per page, and no object for what would not change).
struct PageImporter {
    let container: PersistentContainer
    let policy: MergePolicy
    /// What this importer's pages have read and saved of photographers, for its next pages.
    private let known = KnownPhotographers()

    init(container: PersistentContainer, policy: MergePolicy) {
        (self.container, self.policy) = (container, policy)
    }

    /// Saves `page` in one transaction and returns its counts. With `dryRun`, computes the same
    /// counts in a transaction that is rolled back. What the catalog already holds exactly is left
    /// out (see ``StoredCopies``); a page of nothing else is not saved at all.
    ///
    /// With `expectingNewPhotos` (the previous page's photos were all new, as in a first import),
    /// the page's stored photos are not read: the save inserts its photos assuming their ids are not
    /// stored (GraphStore's `assumeAbsent`), and if one is, runs again looking them up, so the counts
    /// and the merge are the same either way. Never under the error policy.
    ///
    /// Photographers met on earlier pages are not read again (see ``KnownPhotographers``). If the
    /// save fails while some were remembered, the page runs once more reading them all: a `delete`
    /// between two pages may have removed one.
    func importPage(_ prepared: PreparedPage, dryRun: Bool = false, expectingNewPhotos: Bool = false) throws -> FetchSummary {
        do {
            return try importOnce(prepared, dryRun: dryRun, expectingNewPhotos: expectingNewPhotos)
        } catch is GraphStoreError where !known.isEmpty {
            known.removeAll()
            return try importOnce(prepared, dryRun: dryRun, expectingNewPhotos: expectingNewPhotos)
        }
    }

    private func importOnce(_ prepared: PreparedPage, dryRun: Bool, expectingNewPhotos: Bool) throws -> FetchSummary {
        let (page, keys) = (prepared.page, prepared.keys)
        let context = container.newContext(mergePolicy: policy)
        let optimistic = expectingNewPhotos && policy != .error
        if optimistic { context.assumeAbsent(\Photo.$unique) }
        let stored = try StoredCopies(of: page, keys: keys, policy: policy, readingPhotos: !optimistic, known: known, in: context)
        var photographers = Self.photographers(keys, stored, in: context)
        for (index, item) in page.photos.enumerated() where !stored.isStored[index] {
            let photo = context.insert(Photo.self)
            photo.unique = item.id
            photo.title = item.title
            photo.subtitle = item.subtitle
            photo.imageURL = item.imageURL
            photo.uploaded = item.uploaded
            photographers.link(photo, to: keys.owners[index])
        }
        let changes = context.hasChanges ? try save(context, dryRun: dryRun) : ChangeSet()
        if !dryRun { remember(keys, stored, photographers.inserted, changes) }
        return Self.summary(of: page, changes)
    }

    /// Records the page's photographers as the catalog now holds them: those it read (with the
    /// owner id the save wrote when it replaced one), those the save inserted, and forgets those
    /// the save deleted.
    private func remember(_ keys: PageKeys, _ stored: StoredCopies, _ inserted: [Int: Photographer], _ changes: ChangeSet) {
        guard policy != .error else { return }
        let insertedRows = changes.inserted(Photographer.self)
        for (owner, name) in keys.names.enumerated() {
            if let row = stored.photographerRows[owner] {
                let ownerID = stored.isStale[owner] ? keys.ownerIDs[owner] : stored.storedOwnerIDs[owner]
                known.remember(name, .init(id: row, ownerID: ownerID))
            } else if let photographer = inserted[owner], insertedRows.contains(photographer.objectID) {
                known.remember(name, .init(id: photographer.objectID, ownerID: photographer.ownerID))
            }
        }
        known.forget(changes.deleted(Photographer.self))
    }

    /// The page's photographers as the save needs them: new names inserted; stored ones linked to
    /// by row, never loaded. A stored one whose owner id the page changes gets the page's (what
    /// an object-trump merge would write), updated by row.
    private static func photographers(_ keys: PageKeys, _ stored: StoredCopies, in context: ObjectContext) -> PageObjects {
        var objects = PageObjects(context: context, keys: keys, stored: stored)
        let ownerIDKey = \Photographer.$ownerID
        for (owner, row) in stored.photographerRows.enumerated() {
            if let row {
                if stored.isStale[owner] { context.update(row, .set(ownerIDKey, to: keys.ownerIDs[owner])) }
            } else {
                _ = objects.object(owner)
            }
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

/// A page's photographers for its photos: a stored one by its row (``ToOne/destinationID``, no
/// object loaded), a new one as one inserted object per name, with the page's owner id for it
/// (under a merge policy, the save still reconciles it with a row stored meanwhile).
private struct PageObjects {
    let context: ObjectContext
    let keys: PageKeys
    let stored: StoredCopies
    var inserted: [Int: Photographer] = [:]

    /// Links `photo` to the page's photographer number `owner` (an index into ``PageKeys/names``).
    mutating func link(_ photo: Photo, to owner: Int) {
        if let row = stored.photographerRows[owner] {
            photo.$whoTook.destinationID = row
        } else {
            photo.whoTook = object(owner)
        }
    }

    mutating func object(_ owner: Int) -> Photographer {
        if let photographer = inserted[owner] { return photographer }
        let photographer = context.insert(Photographer.self)
        photographer.name = keys.names[owner]
        photographer.ownerID = keys.ownerIDs[owner]
        inserted[owner] = photographer
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
