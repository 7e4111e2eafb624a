/// The extras of one `photo` element kept as metadata (issue 25), as sent; nil when absent.
struct RawPhotoExtras: Sendable {
    var license: LenientScalar?
    var dateTaken: LenientScalar?
    var latitude: LenientScalar?
    var longitude: LenientScalar?
    var lastUpdate: LenientScalar?
    var views: LenientScalar?
    var media: LenientScalar?
    var tags: LenientScalar?
    var sizes = RawSizes()

    /// Reads `key`'s value when it is one of these; false (nothing read) for any other key.
    mutating func read(_ key: JSONKey, _ reader: inout JSONReader) throws(JSONSyntaxError) -> Bool {
        switch key {
        case "license": license = try reader.readScalar()
        case "datetaken": dateTaken = try reader.readScalar()
        case "latitude": latitude = try reader.readScalar()
        case "longitude": longitude = try reader.readScalar()
        case "lastupdate": lastUpdate = try reader.readScalar()
        case "views": views = try reader.readScalar()
        case "media": media = try reader.readScalar()
        case "tags": tags = try reader.readScalar()
        default: return try sizes.read(key, &reader)
        }
        return true
    }
}
