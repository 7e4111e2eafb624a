import GraphStore
import PhotoFeed

/// A re-checked photo as import records: what `flickr.photos.getInfo` says of it (title,
/// description, owner, license, dates, views, media, tags), applied as the same edit arriving in
/// the feed would be, and cleared of `gone` (a gone photo that answers again has returned). The
/// image URL, sizes, geo and upload time are left as the feed gave them: getInfo's differ in form.
struct RecheckRecords {
    let photographers: ImportRecords<Photographer>
    let photos: ImportRecords<Photo>
    let tags: ImportRecords<Tag>

    init(_ item: FeedPhoto) {
        var photographers = ImportRecords(Photographer.self, key: \.$name)
        let ownerID = photographers.field(\.$ownerID)
        var photos = ImportRecords(Photo.self, key: \.$unique)
        var tags = ImportRecords(Tag.self, key: \.$name)
        let (title, titleKey, subtitle) = (photos.field(\.$title), photos.field(\.$titleKey), photos.field(\.$subtitle))
        let (whoTook, gone, goneReason) = (photos.link(\.$whoTook), photos.field(\.$gone), photos.field(\.$goneReason))
        let (license, taken, lastUpdate) = (photos.field(\.$license), photos.field(\.$taken), photos.field(\.$lastUpdate))
        let (views, media, tagList, members) = (photos.field(\.$views), photos.field(\.$media), photos.field(\.$tagList), photos.members(\.$tags))
        let owner = photographers.append(item.ownerName) { $0[ownerID] = item.ownerID }
        let tagged = item.metadata.tags.map { $0.map { tags.append($0) } }
        photos.append(item.id) { photo in
            (photo[title], photo[titleKey], photo[subtitle]) = (item.title, TextFolding.sortKey(item.title), item.subtitle)
            (photo[whoTook], photo[gone], photo[goneReason]) = (owner, nil, nil)
            let details = item.metadata
            (photo[license], photo[taken], photo[lastUpdate]) = (details.license, details.taken, details.lastUpdate)
            (photo[views], photo[media]) = (details.views, details.media)
            (photo[tagList], photo[members]) = (details.tags?.joined(separator: " "), tagged)
        }
        (self.photographers, self.photos, self.tags) = (photographers, photos, tags)
    }

    var all: [AnyImportRecords] { [AnyImportRecords(photographers), AnyImportRecords(photos), AnyImportRecords(tags)] }
}
