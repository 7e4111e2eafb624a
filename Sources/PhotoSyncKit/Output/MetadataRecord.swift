import PhotoFeed

/// A photo's metadata as `list` and `show` print it in JSON (issue 25): `license` an object
/// `{id, name, url}` (name and URL null until `licenses.getInfo` named the id) or null; `taken`
/// as Flickr sent it; `latitude`, `longitude`, `last_update`, `views` and `media` or null; `tags`
/// an array (empty when none); `gone`, `gone_reason` and `checked` what a re-check found, or null.
struct MetadataRecord: Encodable {
    var metadata: PhotoMetadata
    var license: LicenseRecord?
    var check: PhotoCheck

    init(_ photo: PhotoListing) {
        (metadata, check) = (photo.metadata, photo.check)
        license = photo.metadata.license.map { LicenseRecord(id: $0, name: photo.licenseInfo?.name, url: photo.licenseInfo?.url) }
    }

    struct LicenseRecord: Encodable {
        var id: String
        var name: String?
        var url: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(url, forKey: .url)
        }

        enum CodingKeys: String, CodingKey { case id, name, url }
    }

    enum CodingKeys: String, CodingKey {
        case license, taken, latitude, longitude, views, media, tags
        case lastUpdate = "last_update"
        case gone, checked
        case goneReason = "gone_reason"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(license, forKey: .license)
        try container.encode(metadata.taken, forKey: .taken)
        try container.encode(metadata.latitude, forKey: .latitude)
        try container.encode(metadata.longitude, forKey: .longitude)
        try container.encode(metadata.lastUpdate.map(timestamp), forKey: .lastUpdate)
        try container.encode(metadata.views, forKey: .views)
        try container.encode(metadata.media, forKey: .media)
        try container.encode(metadata.tags ?? [], forKey: .tags)
        try container.encode(check.gone.map(timestamp), forKey: .gone)
        try container.encode(check.goneReason, forKey: .goneReason)
        try container.encode(check.checked.map(timestamp), forKey: .checked)
    }
}
