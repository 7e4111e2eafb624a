import GraphStore
import PhotoFeed

/// Saves one feed page the Core Data way: insert new objects (one Photographer per distinct name)
/// and let the unique constraints and the merge policy reconcile them with stored rows at save.
struct PageImporter {
    let container: PersistentContainer
    let policy: MergePolicy

    /// Saves `page` in one transaction and returns its counts; then removes photographers the page
    /// left without photos (a photo that changed hands).
    func importPage(_ page: FeedPage) throws -> FetchSummary {
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
        var changes = ChangeSet()
        context.onDidSave { changes = $0 }
        try context.save()

        var summary = FetchSummary()
        summary.pages = 1
        summary.received = page.photos.count + page.skipped.count
        summary.skipped = page.skipped.count
        summary.inserted = changes.inserted(Photo.self).count
        summary.updated = changes.updated(Photo.self).count
        summary.unchanged = page.photos.count - summary.inserted - summary.updated
        summary.photographersInserted = changes.inserted(Photographer.self).count
        if !changes.updated(Photo.self).isEmpty { summary.photographersRemoved = try removeOrphans(context) }
        return summary
    }

    private func insertPhotographer(_ item: FeedPhoto, into context: ObjectContext, _ known: inout [String: Photographer]) -> Photographer {
        let photographer = context.insert(Photographer.self)
        photographer.name = item.ownerName
        photographer.ownerID = item.ownerID
        known[item.ownerName] = photographer
        return photographer
    }

    private func removeOrphans(_ context: ObjectContext) throws -> Int {
        let orphans = try context.fetch(FetchRequest<Photographer>(predicate: !.any(\.$photos, .all)))
        for orphan in orphans { context.delete(orphan) }
        try context.save()
        return orphans.count
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
