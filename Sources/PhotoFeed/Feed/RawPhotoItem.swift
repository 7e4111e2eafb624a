/// One element of the `photo` array as sent, before any rule is applied. Only the keys
/// photosync uses are kept; each is nil when the key is absent.
struct RawPhotoItem: Sendable {
    var id: LenientScalar?
    /// The id's text exactly as sent when it is a JSON number (`-0`, `1e400`, 30 digits).
    var idNumberText: String?
    var owner: LenientScalar?
    var ownerName: LenientScalar?
    var title: String?
    var description: String?
    var secret: LenientScalar?
    var server: LenientScalar?
    var dateUpload: LenientScalar?
    var largeURL: LenientScalar?
    /// The extras kept beside the photo (license, date taken, geo, last update, views, media).
    var extras = RawPhotoExtras()
    /// False when the element is not a JSON object at all.
    var isObject = true

    /// Reads one element; a repeated key keeps its last value.
    static func read(_ reader: inout JSONReader) throws(JSONSyntaxError) -> RawPhotoItem {
        try read(&reader) { item, key, reader throws(JSONSyntaxError) in
            switch key {
            case "owner": item.owner = try reader.readScalar()
            case "ownername": item.ownerName = try reader.readScalar()
            case "dateupload": item.dateUpload = try reader.readScalar()
            case "url_l": item.largeURL = try reader.readScalar()
            default: if try !item.extras.read(key, &reader) { try reader.skipValue() }
            }
        }
    }

    /// Reads an object's members: the keys every shape shares (id, title, description, secret,
    /// server) here, the others with `member`. Anything but an object is an item with `isObject` false.
    static func read(
        _ reader: inout JSONReader, members member: (inout RawPhotoItem, JSONKey, inout JSONReader) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) -> RawPhotoItem {
        var item = RawPhotoItem()
        guard try reader.nextKind() == .object else {
            try reader.skipValue()
            item.isObject = false
            return item
        }
        try reader.forEachMember { reader, key throws(JSONSyntaxError) in
            switch key {
            case "id": (item.id, item.idNumberText) = try reader.readScalarKeepingNumberText()
            case "title": item.title = try FlickrText.read(&reader)
            case "description": item.description = try FlickrText.read(&reader)
            case "secret": item.secret = try reader.readScalar()
            case "server": item.server = try reader.readScalar()
            default: try member(&item, key, &reader)
            }
        }
        return item
    }
}
