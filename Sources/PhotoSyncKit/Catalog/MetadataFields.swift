import Foundation
import GraphStore
import PhotoFeed

/// The import fields of a photo's metadata (``PhotoMetadata``), looked up once per page. Every
/// field is set, nil included: the feed's word replaces the stored one (under the merge policy).
struct MetadataFields {
    let license, taken, media, sizes, tagList: ImportField<Photo, String?>
    let latitude, longitude: ImportField<Photo, Double?>
    let lastUpdate: ImportField<Photo, Date?>
    let views: ImportField<Photo, Int?>

    init(_ photos: inout ImportRecords<Photo>) {
        (license, taken, media) = (photos.field(\.$license), photos.field(\.$taken), photos.field(\.$media))
        (latitude, longitude) = (photos.field(\.$latitude), photos.field(\.$longitude))
        (lastUpdate, views, sizes) = (photos.field(\.$lastUpdate), photos.field(\.$views), photos.field(\.$sizes))
        tagList = photos.field(\.$tagList)
    }

    func fill(_ photo: inout ImportRecord<Photo>, _ details: PhotoMetadata) {
        (photo[license], photo[taken], photo[media]) = (details.license, details.taken, details.media)
        (photo[latitude], photo[longitude]) = (details.latitude, details.longitude)
        (photo[lastUpdate], photo[views], photo[sizes]) = (details.lastUpdate, details.views, PhotoSize.encoded(details.sizes))
        photo[tagList] = details.tags?.joined(separator: " ")
    }
}
