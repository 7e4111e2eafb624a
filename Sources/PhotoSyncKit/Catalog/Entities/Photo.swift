import Foundation
import GraphStore

/// One photo of the catalog, keyed by the feed's photo id (`unique`).
final class Photo: ManagedObject {
    /// A photographer's photos by title come straight from this index (`list --photographer`, and
    /// the cascade when a photographer goes); it replaces the foreign key's own index. `uploaded`
    /// serves the newest first. No index on `title` alone: keeping it sorted doubled a first import
    /// (the C floor, 100k photos: 2.9 s with it, 1.5 s without), for one query (the whole catalog by
    /// title with `--limit`), which now scans the table instead.
    override class var compositeIndexes: [[AnyKeyPath]] { [[\Photo.$whoTook, \Photo.$title]] }

    @Attribute(.unique) var unique = ""
    @Attribute var title = ""
    @Attribute var subtitle = ""
    @Attribute var imageURL = ""
    @Attribute(.indexed) var uploaded: Date? = nil
    @ToOne(deleteRule: .nullify) var whoTook: Photographer?
    /// The query or feed that first brought the photo (``FeedSource/label``); empty for photos
    /// stored before sources were recorded.
    @Attribute var source = ""

    /// A photographer lives only as long as they have photos: deleting their last one deletes them.
    override func prepareForDeletion() {
        guard let photographer = whoTook else { return }
        if photographer.photos.allSatisfy({ $0 === self || $0.isDeleted }) {
            context?.delete(photographer)
        }
    }
}
