/// What `show` prints: every field of one photo, as labelled lines or one JSON object.
enum ShowOutput {
    static func render(_ photo: PhotoDetails, as format: ReportFormat, time: TableTime = .utc) throws -> String {
        switch format {
        case .json:
            return try JSONOutput.render(Record(photo))
        case .text:
            let listing = photo.listing
            let fields = [
                ("id", listing.id), ("title", listing.title), ("subtitle", listing.subtitle),
                ("photographer", listing.photographer), ("owner id", photo.ownerID),
                ("uploaded", listing.uploaded.map(time.text) ?? "unknown"), ("image", listing.imageURL), ("page", photo.pageURL),
            ]
            let width = fields.map(\.0.count).max() ?? 0
            return fields.map { label, value in
                label + ":" + String(repeating: " ", count: width - label.count + 1) + TerminalText.escaped(value) + "\n"
            }.joined()
        }
    }

    /// `list`'s keys plus `owner_id` and `page_url`.
    private struct Record: Encodable {
        var photo: PhotoDetails

        init(_ photo: PhotoDetails) { self.photo = photo }

        enum CodingKeys: String, CodingKey {
            case ownerID = "owner_id"
            case pageURL = "page_url"
        }

        func encode(to encoder: any Encoder) throws {
            try PhotoListOutput.Record(photo.listing).encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(photo.ownerID, forKey: .ownerID)
            try container.encode(photo.pageURL, forKey: .pageURL)
        }
    }
}
