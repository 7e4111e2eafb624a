/// A text field that Flickr's XML-to-JSON mapping may wrap as `{"_content": "…"}`
/// (always so for `description`), or send as a bare scalar.
enum FlickrText {
    /// The text, or nil when the value is null, a bool, an array or an object without `_content`.
    static func read(_ reader: inout JSONReader) throws(JSONSyntaxError) -> String? {
        guard try reader.nextKind() == .object else { return try reader.readScalar().text }
        var content: String?
        try reader.forEachMember { reader, key throws(JSONSyntaxError) in
            if key == "_content" {
                content = try reader.readScalar().text
            } else {
                try reader.skipValue()
            }
        }
        return content
    }
}
