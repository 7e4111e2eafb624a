import Foundation
import GraphStore

/// One photo of the catalog, keyed by the feed's photo id (`unique`).
///
/// Indexes: `uploaded` serves the newest first (`--sort uploaded --limit`); (whoTook, uploaded), in
/// place of the foreign key's own, finds a photographer's photos newest first as an index walk
/// (the gallery's pages, the cascade when one goes) at almost no import cost (model 9, issue 28).
/// `titleKey`'s keeps `list`'s default order (and `/api/photos`') a walk of 100 rows instead of a
/// sort of them all. A first import builds these two once at its end (`.indexedAfterImport`,
/// model 10): titles come in random order, and upload times newest first leave a B-tree kept
/// up to date half full (`status` counts by walking it).
final class Photo: ManagedObject {
    override class var compositeIndexes: [[AnyKeyPath]] { [[\Photo.$whoTook, \Photo.$uploaded]] }

    @Attribute(.unique, .preservedOnDeletion) var unique = ""
    @Attribute(.tracked, .preservedOnDeletion) var title = ""
    /// `title`'s ``TextFolding/sortKey(_:)``, what `list` sorts by: the same dictionary order on
    /// both stores, with no function run per row. nil only in a catalog from before model 8
    /// until its next writable open fills it (``Catalog/fillTitleKeys(_:)``).
    @Attribute(.indexedAfterImport) var titleKey: String? = nil
    @Attribute(.tracked) var subtitle = ""
    @Attribute var imageURL = ""
    @Attribute(.indexedAfterImport) var uploaded: Date? = nil
    @ToOne(deleteRule: .nullify, .tracked, .preservedOnDeletion) var whoTook: Photographer?
    /// The query or feed that first brought the photo (``FeedSource/label``); empty for photos
    /// stored before sources were recorded.
    @Attribute var source = ""
    /// The metadata kept beside (issue 25, see `PhotoDetails`): nil until a fetch meets the photo
    /// with it. `taken` is Flickr's local time as sent; `license` its id (see ``License``).
    @Attribute(.tracked) var license: String? = nil
    @Attribute var taken: String? = nil
    @Attribute var latitude: Double? = nil
    @Attribute var longitude: Double? = nil
    @Attribute var lastUpdate: Date? = nil
    @Attribute var views: Int? = nil
    @Attribute var media: String? = nil
    /// The image sizes the feed gave, as ``PhotoSize/encoded(_:)`` writes them.
    @Attribute var sizes: String? = nil
    /// The tags as the feed last sent them, space-separated (nil: never sent): written with the
    /// photo, so a changed tag set is an update; ``tags`` follows it in the same import save
    /// (see ``MetadataFields``). Tracked: `changes` shows a photo's tags before and after, the
    /// many-to-many links one save changed.
    @Attribute(.tracked) var tagList: String? = nil
    @ToMany(inverse: \Tag.$photos) var tags: [Tag]
    /// When a re-check found the photo gone upstream (issue 26), and why (``GoneReason``); nil while
    /// it is there. Tracked: `changes` tells a photo gone from one that returned.
    @Attribute(.tracked) var gone: Date? = nil
    @Attribute(.tracked) var goneReason: String? = nil
    /// When `recheck` last asked the API about the photo (nil: never).
    @Attribute var checked: Date? = nil

    /// A photographer lives only as long as they have photos: deleting their last one deletes them.
    /// (`hasLiveMember` keeps deleting all of a prolific photographer's photos linear: it skips
    /// the photos it already found deleted.)
    override func prepareForDeletion() {
        guard let photographer = whoTook else { return }
        if !photographer.$photos.hasLiveMember(besides: self) {
            context?.delete(photographer)
        }
    }
}
