import Foundation
import Synchronization

/// The gallery's pages and API over one catalog opened read-only: nothing here writes.
final class Gallery: Sendable {
    let catalog: Catalog
    /// Where downloaded files are (`/files/` serves only under it); nil: no files to show.
    let filesFolder: String?
    /// Whether a photo without a downloaded file may show Flickr's image (`serve_remote_images`).
    let remoteImages: Bool
    /// The catalog as `status` names it (without a password).
    let catalogName: String
    static let pageSize = 24
    private let stopping = Atomic<Bool>(false)

    init(catalog: Catalog, filesFolder: String?, remoteImages: Bool, catalogName: String) {
        (self.catalog, self.filesFolder, self.remoteImages, self.catalogName) = (catalog, filesFolder, remoteImages, catalogName)
    }

    /// Whether ``stop()`` was called: a read that fails now was interrupted, not broken.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Ends the catalog reads running now (a long search scan) and refuses new ones: SIGTERM's
    /// part, so the server stops at once instead of after its scans.
    func stop() {
        stopping.store(true, ordering: .releasing)
        catalog.interruptReads()
    }

    /// The photo grid for `photos`, with their verified files.
    func grid(for photos: [PhotoListing]) throws -> PhotoGrid {
        PhotoGrid(files: filesFolder == nil ? [:] : try catalog.verifiedFiles(of: photos.map(\.id)), remoteImages: remoteImages)
    }

    /// A page of `query`'s photos after `after` (a ``GalleryCursor`` from a `rel=next` link), and
    /// the next page's cursor when there is one.
    func photoPage(_ query: ListQuery, after: String?) throws -> (photos: [PhotoListing], next: String?) {
        var cursor: GalleryCursor?
        if let after {
            guard let parsed = GalleryCursor(after) else { throw GalleryProblem.badRequest("the page link is not valid") }
            cursor = parsed
        }
        let page = try catalog.galleryPage(query, after: cursor, limit: Self.pageSize + 1)
        let shown = Array(page.prefix(Self.pageSize))
        let next = page.count > Self.pageSize ? shown.last.map { GalleryCursor(uploaded: $0.uploaded, id: $0.id).text } : nil
        return (shown, next)
    }
}

/// A request the gallery answers with an error page.
enum GalleryProblem: Error {
    case badRequest(String)
    case notFound(String)
}
