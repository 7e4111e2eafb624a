import Foundation
import GraphStore
import PhotoFeed

/// The import fields of a photo's metadata (``PhotoMetadata``), looked up once per page. Every
/// field is set, nil included: the feed's word replaces the stored one (under the merge policy).
/// The tags sent are also the photo's complete ``Photo/tags`` set: the pairs follow `tagList` in the
/// same save (tags not sent leave the pairs as they are).
struct MetadataFields {
    let license, taken, media, sizes, tagList: ImportField<Photo, String?>
    let latitude, longitude: ImportField<Photo, Double?>
    let lastUpdate: ImportField<Photo, Date?>
    let views: ImportField<Photo, Int?>
    let tags: ImportMembers<Photo, Tag>

    init(_ photos: inout ImportRecords<Photo>) {
        (license, taken, media) = (photos.field(\.$license), photos.field(\.$taken), photos.field(\.$media))
        (latitude, longitude) = (photos.field(\.$latitude), photos.field(\.$longitude))
        (lastUpdate, views, sizes) = (photos.field(\.$lastUpdate), photos.field(\.$views), photos.field(\.$sizes))
        (tagList, tags) = (photos.field(\.$tagList), photos.members(\.$tags))
    }

    /// `tagged`: the page's Tag records of `details.tags`.
    func fill(_ photo: inout ImportRecord<Photo>, _ details: PhotoMetadata, tags tagged: [ImportReference<Tag>]?) {
        (photo[license], photo[taken], photo[media]) = (details.license, details.taken, details.media)
        (photo[latitude], photo[longitude]) = (details.latitude, details.longitude)
        (photo[lastUpdate], photo[views], photo[sizes]) = (details.lastUpdate, details.views, PhotoSize.encoded(details.sizes))
        (photo[tagList], photo[tags]) = (details.tags?.joined(separator: " "), tagged)
    }
}
