/// The top-level object as sent. It is read whole before anything is decided, because
/// Flickr puts `stat` after `photos` while its meaning comes first (see `FeedDecoder`).
struct RawResponse: Sendable {
    var stat: LenientScalar?
    var code: LenientScalar?
    var message: LenientScalar?
    var photos: RawPhotos?
    /// Set when `photos` is present but neither an object nor null.
    var photosIsNotObject = false

    /// nil when the top-level value is not an object; throws only for JSON syntax errors.
    static func read(_ reader: inout JSONReader) throws(JSONSyntaxError) -> RawResponse? {
        guard try reader.nextKind() == .object else {
            try reader.skipValue()
            try reader.expectEnd()
            return nil
        }
        var response = RawResponse()
        try reader.forEachMember { reader, key throws(JSONSyntaxError) in
            switch key {
            case "stat": response.stat = try reader.readScalar()
            case "code": response.code = try reader.readScalar()
            case "message": response.message = try reader.readScalar()
            case "photos": try response.readPhotos(&reader)
            default: try reader.skipValue()
            }
        }
        try reader.expectEnd()
        return response
    }

    private mutating func readPhotos(_ reader: inout JSONReader) throws(JSONSyntaxError) {
        switch try reader.nextKind() {
        case .object:
            photos = try RawPhotos.read(&reader)
            photosIsNotObject = false
        case .null:
            try reader.skipValue()
            photos = nil
        default:
            try reader.skipValue()
            photos = nil
            photosIsNotObject = true
        }
    }
}
