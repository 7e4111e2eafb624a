import GraphStore
import PhotoFeed

/// A decoded page as GraphStore import records: one Photographer record and one Photo record per
/// feed item, the photo linked to its photographer. Built on the thread that downloads the page,
/// so the saving thread only saves.
///
/// Nothing here decides what is stored: repeated ids and names, photos already in the catalog and
/// photographers nobody links to any more are the import session's to judge, under its merge policy.
struct PreparedPage: Sendable {
    let page: FeedPage
    let photographers: ImportRecords<Photographer>
    let photos: ImportRecords<Photo>

    init(_ page: FeedPage) {
        self.page = page
        var photographers = ImportRecords(Photographer.self, key: \.$name)
        let ownerID = photographers.field(\.$ownerID)
        var photos = ImportRecords(Photo.self, key: \.$unique)
        let (title, subtitle) = (photos.field(\.$title), photos.field(\.$subtitle))
        let (imageURL, uploaded, whoTook) = (photos.field(\.$imageURL), photos.field(\.$uploaded), photos.link(\.$whoTook))
        for item in page.photos {
            let owner = photographers.append(item.ownerName) { $0[ownerID] = item.ownerID }
            photos.append(item.id) { photo in
                photo[title] = item.title
                photo[subtitle] = item.subtitle
                photo[imageURL] = item.imageURL
                photo[uploaded] = item.uploaded
                photo[whoTook] = owner
            }
        }
        (self.photographers, self.photos) = (photographers, photos)
    }
}

extension FetchSummary {
    /// The counts of a fetch so far: what its import session did, and what its pages held.
    init(session: ImportSession, pages: Int, received: Int, skipped: Int) {
        self.init()
        let photos = session.counts(Photo.self), photographers = session.counts(Photographer.self)
        (self.pages, self.received, self.skipped) = (pages, received, skipped)
        (inserted, updated, unchanged, repeated) = (photos.inserted, photos.updated, photos.unchanged, photos.repeated)
        (photographersInserted, photographersRemoved) = (photographers.inserted, photographers.deleted)
    }
}
