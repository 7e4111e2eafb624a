import Foundation
import GraphStore
import PhotoFeed

extension Catalog {
    /// The metadata columns `list`'s JSON and `show` read beside the others.
    static var metadataColumns: [PartialKeyPath<Photo>] { [\.$license, \.$taken, \.$latitude, \.$longitude, \.$lastUpdate, \.$views, \.$media, \.$tagList] }

    /// Each row's ``PhotoMetadata``, from columns read with ``metadataColumns``.
    static func metadata(_ photos: FetchedColumns<Photo>) throws -> [PhotoMetadata] {
        let (license, taken, media) = (try photos.values(\.$license), try photos.values(\.$taken), try photos.values(\.$media))
        let (latitude, longitude) = (try photos.values(\.$latitude), try photos.values(\.$longitude))
        let (lastUpdate, views, tags) = (try photos.values(\.$lastUpdate), try photos.values(\.$views), try photos.values(\.$tagList))
        return license.indices.map { row in
            var details = PhotoMetadata()
            (details.license, details.taken, details.media) = (license[row], taken[row], media[row])
            (details.latitude, details.longitude) = (latitude[row], longitude[row])
            (details.lastUpdate, details.views) = (lastUpdate[row], views[row])
            details.tags = tags[row].map(Self.tagNames)
            return details
        }
    }

    static var checkColumns: [PartialKeyPath<Photo>] { [\.$gone, \.$goneReason, \.$checked] }

    /// Each row's ``PhotoCheck``, from columns read with ``checkColumns``.
    static func checks(_ photos: FetchedColumns<Photo>) throws -> [PhotoCheck] {
        let (gone, reasons, checked) = (try photos.values(\.$gone), try photos.values(\.$goneReason), try photos.values(\.$checked))
        return gone.indices.map { PhotoCheck(gone: gone[$0], goneReason: reasons[$0], checked: checked[$0]) }
    }
}

extension Photo {
    /// The stored metadata (see ``PhotoMetadata``).
    var metadata: PhotoMetadata {
        var metadata = PhotoMetadata()
        (metadata.license, metadata.taken, metadata.media) = (license, taken, media)
        (metadata.latitude, metadata.longitude, metadata.lastUpdate, metadata.views) = (latitude, longitude, lastUpdate, views)
        metadata.sizes = PhotoSize.decoded(sizes)
        metadata.tags = tagList.map(Catalog.tagNames)
        return metadata
    }
}

extension Catalog {
    /// The names a stored `tagList` holds.
    static func tagNames(_ list: String) -> [String] { list.split(separator: " ").map(String.init) }
}
