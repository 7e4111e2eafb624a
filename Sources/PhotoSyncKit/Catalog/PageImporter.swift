import GraphStore
import PhotoFeed

/// Saves one feed page the Core Data way: insert new objects (one Photographer per distinct name)
/// and let the unique constraints and the merge policy reconcile them with stored rows at save.
struct PageImporter {
    let container: PersistentContainer
    let policy: MergePolicy

    /// Saves `page` in one transaction and returns its counts. With `dryRun`, computes the same
    /// counts in a transaction that is rolled back.
    func importPage(_ page: FeedPage, dryRun: Bool = false) throws -> FetchSummary {
        let context = container.newContext(mergePolicy: policy)
        var photographers: [String: Photographer] = [:]
        for item in page.photos {
            let photo = context.insert(Photo.self)
            photo.unique = item.id
            photo.title = item.title
            photo.subtitle = item.subtitle
            photo.imageURL = item.imageURL
            photo.uploaded = item.uploaded
            photo.whoTook = photographers[item.ownerName] ?? insertPhotographer(item, into: context, &photographers)
        }
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

    private func insertPhotographer(_ item: FeedPhoto, into context: ObjectContext, _ known: inout [String: Photographer]) -> Photographer {
        let photographer = context.insert(Photographer.self)
        photographer.name = item.ownerName
        photographer.ownerID = item.ownerID
        known[item.ownerName] = photographer
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
