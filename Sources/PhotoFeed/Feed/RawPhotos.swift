/// The `photos` object as sent: paging counters (validated later, by `PageCounters`)
/// and the raw `photo` elements.
struct RawPhotos: Sendable {
    var page: LenientScalar?
    var pages: LenientScalar?
    var perPage: LenientScalar?
    var total: LenientScalar?
    var items: [RawPhotoItem] = []
    /// Set when `photo` is present but neither an array nor null.
    var photoIsNotArray = false

    /// Reads the object (the reader is on its `{`).
    static func read(_ reader: inout JSONReader) throws(JSONSyntaxError) -> RawPhotos {
        var photos = RawPhotos()
        try reader.forEachMember { reader, key throws(JSONSyntaxError) in
            switch key {
            case "page": photos.page = try reader.readScalar()
            case "pages": photos.pages = try reader.readScalar()
            case "perpage": photos.perPage = try reader.readScalar()
            case "total": photos.total = try reader.readScalar()
            case "photo": try photos.readItems(&reader)
            default: try reader.skipValue()
            }
        }
        return photos
    }

    private mutating func readItems(_ reader: inout JSONReader) throws(JSONSyntaxError) {
        switch try reader.nextKind() {
        case .array:
            var items: [RawPhotoItem] = []
            try reader.forEachElement { reader, _ throws(JSONSyntaxError) in
                items.append(try RawPhotoItem.read(&reader))
            }
            self.items = items
            photoIsNotArray = false
        case .null:
            try reader.skipValue()
        default:
            try reader.skipValue()
            photoIsNotArray = true
        }
    }
}
