/// `flickr.photos.getInfo`'s `photo` object read into the shape of a search result's element, so
/// the same rules (``PhotoItemRules``) apply to it: the owner's NSID and name, the dates and the
/// tags are nested there (`owner.nsid`, `dates.posted`, `tags.tag[]._content`).
enum RawPhotoInfo {
    static func read(_ reader: inout JSONReader) throws(JSONSyntaxError) -> RawPhotoItem {
        try RawPhotoItem.read(&reader) { item, key, reader throws(JSONSyntaxError) in
            switch key {
            case "dateuploaded":
                let uploaded = try reader.readScalar()
                item.dateUpload = item.dateUpload ?? uploaded
            case "license": item.extras.license = try reader.readScalar()
            case "views": item.extras.views = try reader.readScalar()
            case "media": item.extras.media = try reader.readScalar()
            case "owner": try readMembers(&reader) { key, value in
                if key == "nsid" { item.owner = value } else if key == "username" { item.ownerName = value }
            }
            case "dates": try readMembers(&reader) { key, value in
                if key == "posted" { item.dateUpload = value } else if key == "taken" { item.extras.dateTaken = value }
                else if key == "lastupdate" { item.extras.lastUpdate = value }
            }
            case "tags": item.extras.tags = try readTags(&reader)
            default: try reader.skipValue()
            }
        }
    }

    /// An object's scalar members, handed to `member`; anything else is skipped.
    private static func readMembers(
        _ reader: inout JSONReader, _ member: (JSONKey, LenientScalar) -> Void
    ) throws(JSONSyntaxError) {
        guard try reader.nextKind() == .object else { return try reader.skipValue() }
        try reader.forEachMember { reader, key throws(JSONSyntaxError) in member(key, try reader.readScalar()) }
    }

    /// `{"tag": [{"_content": "sand"}, …]}` as the space-separated list a search result sends.
    private static func readTags(_ reader: inout JSONReader) throws(JSONSyntaxError) -> LenientScalar {
        var tags: [String] = []
        guard try reader.nextKind() == .object else { return try reader.readScalar() }
        try reader.forEachMember { reader, key throws(JSONSyntaxError) in
            guard key == "tag", try reader.nextKind() == .array else { return try reader.skipValue() }
            try reader.forEachElement { reader, _ throws(JSONSyntaxError) in
                if let tag = try FlickrText.read(&reader) { tags.append(tag) }
            }
        }
        return .string(tags.joined(separator: " "))
    }
}
