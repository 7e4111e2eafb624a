import GraphStore
import PhotoFeed

/// A decoded page as GraphStore import records: one Photographer record and one Photo record per
/// feed item, the photo linked to its photographer, and a Tag record per tag the page names, each
/// photo giving its complete tag set (so the pairs are written in the page's own transaction).
/// Built on the thread that downloads the page (see ``PageDownload``), so the saving thread only saves.
///
/// Nothing here decides what is stored: repeated ids and names, photos already in the catalog and
/// photographers nobody links to any more are the import session's to judge, under its merge policy.
struct PreparedPage: Sendable {
    let page: FeedPage
    let photographers: ImportRecords<Photographer>
    let photos: ImportRecords<Photo>
    let tags: ImportRecords<Tag>
    /// Photos left out because a delete excluded their id or photographer.
    let excluded: Int
    /// What was left out, and the label the photos carry (to prepare the page again).
    let exclusions: PageExclusions
    let source: String

    /// `source`: the label stored with the photos this page inserts.
    init(_ page: FeedPage, source: String, excluding exclusions: PageExclusions = PageExclusions()) {
        (self.page, self.exclusions, self.source) = (page, exclusions, source)
        var excluded = 0
        var photographers = ImportRecords(Photographer.self, key: \.$name)
        let ownerID = photographers.field(\.$ownerID)
        var photos = ImportRecords(Photo.self, key: \.$unique)
        var tags = ImportRecords(Tag.self, key: \.$name)
        photographers.reserveCapacity(page.photos.count)
        photos.reserveCapacity(page.photos.count)
        let (title, titleKey, subtitle) = (photos.field(\.$title), photos.field(\.$titleKey), photos.field(\.$subtitle))
        let (imageURL, uploaded, whoTook) = (photos.field(\.$imageURL), photos.field(\.$uploaded), photos.link(\.$whoTook))
        let sourceField = photos.fieldSetOnInsert(\.$source)
        let metadata = MetadataFields(&photos)
        for item in page.photos {
            if exclusions.excludes(item) {
                excluded += 1
                continue
            }
            let owner = photographers.append(item.ownerName) { $0[ownerID] = item.ownerID }
            let tagged = item.metadata.tags.map { $0.map { tags.append($0) } }
            photos.append(item.id) { photo in
                photo[title] = item.title
                photo[titleKey] = TextFolding.sortKey(item.title)
                photo[subtitle] = item.subtitle
                photo[imageURL] = item.imageURL
                photo[uploaded] = item.uploaded
                photo[whoTook] = owner
                photo[sourceField] = source
                metadata.fill(&photo, item.metadata, tags: tagged)
            }
        }
        (self.photographers, self.photos, self.tags, self.excluded) = (photographers, photos, tags, excluded)
    }
}

extension PreparedPage {
    /// The page as `exclusions` leave it: itself when they are those it was prepared with (a
    /// delete that committed since it was prepared changes them).
    func excluding(_ exclusions: PageExclusions) -> PreparedPage {
        exclusions == self.exclusions ? self : PreparedPage(page, source: source, excluding: exclusions)
    }

    /// Whether the saved page held only photos already in the catalog, unchanged (an excluded photo
    /// is known too): for an incremental fetch, the rest of the feed is older and known as well.
    func isKnown(_ result: ImportResult) -> Bool {
        let counts = result.counts(Photo.self)
        return photos.count + excluded > 0 && counts.inserted == 0 && counts.updated == 0 && counts.repeated == 0
            && counts.unchanged == photos.count
    }
}

extension FetchSummary {
    /// The counts of a fetch so far: what its import session did (with `pending`, a save not yet
    /// committed), and what its pages held.
    init(session: ImportSession, pending: ImportResult?, pages: Int, received: Int, skipped: Int, excluded: Int) {
        self.init()
        let (photos, photographers) = if let pending {
            (session.counts(Photo.self, adding: pending), session.counts(Photographer.self, adding: pending))
        } else {
            (session.counts(Photo.self), session.counts(Photographer.self))
        }
        (self.pages, self.received, self.skipped, self.excluded) = (pages, received, skipped, excluded)
        (inserted, updated, unchanged, repeated) = (photos.inserted, photos.updated, photos.unchanged, photos.repeated)
        (photographersInserted, photographersRemoved) = (photographers.inserted, photographers.deleted)
    }
}
