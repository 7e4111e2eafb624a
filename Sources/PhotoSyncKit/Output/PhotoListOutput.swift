/// `list` output in each format.
enum PhotoListOutput {
    static let csvHeader = ["id", "title", "subtitle", "photographer", "image_url", "uploaded", "source"]

    /// `photographer` only words the empty-table message; `lineWidth` narrows the table's title and
    /// photographer columns so no row is wider. `files` (photo id → absolute path) adds JSON's
    /// `file` key: the path, or null for a photo without a verified file.
    static func render(
        _ photos: [PhotoListing], as format: TabularFormat, photographer: String?, lineWidth: Int? = nil, time: TableTime = .utc,
        files: [String: String]? = nil
    ) throws -> String {
        let record = { (photo: PhotoListing) in Record(photo, files: files) }
        switch format {
        case .json:
            return try JSONOutput.render(photos.map(record))
        case .jsonl:
            return try JSONLines.render(photos.map(record))
        case .csv:
            return CSVWriter.render(
                header: csvHeader,
                rows: photos.map { [$0.id, $0.title, $0.subtitle, $0.photographer, $0.imageURL, $0.uploaded.map(timestamp) ?? "", $0.source] })
        case .table:
            guard !photos.isEmpty else { return photographer.map { "No photos by \(TerminalText.escaped($0)).\n" } ?? "No photos.\n" }
            let table = TableRenderer(columns: [
                .init(header: "ID"), .init(header: "TITLE", maxWidth: 48, shrinks: true),
                .init(header: "PHOTOGRAPHER", maxWidth: 24, shrinks: true), .init(header: "UPLOADED"),
            ], lineWidth: lineWidth)
            return table.render(photos.map { [$0.id, ($0.check.gone == nil ? "" : "(gone) ") + $0.title, $0.photographer, $0.uploaded.map(time.text) ?? "-"] })
        }
    }

    /// One photo in JSON; a missing value is an explicit null so every object has every key.
    struct Record: Encodable {
        var id, title, subtitle, photographer, imageURL, source, ownerID: String
        var uploaded: String?
        var metadata: MetadataRecord
        /// nil: no `file` key (`show` writes its own); `.some(nil)`: null.
        var file: String??

        init(_ photo: PhotoListing, files: [String: String]? = nil) {
            file = files.map { $0[photo.id] }
            (id, title, subtitle, photographer, imageURL) = (photo.id, photo.title, photo.subtitle, photo.photographer, photo.imageURL)
            (source, ownerID) = (photo.source, photo.ownerID)
            uploaded = photo.uploaded.map(timestamp)
            metadata = MetadataRecord(photo)
        }

        enum CodingKeys: String, CodingKey {
            case id, title, subtitle, photographer, uploaded, source, file
            case imageURL = "image_url"
            case ownerID = "owner_id"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(subtitle, forKey: .subtitle)
            try container.encode(photographer, forKey: .photographer)
            try container.encode(imageURL, forKey: .imageURL)
            try container.encode(uploaded, forKey: .uploaded)
            try container.encode(source, forKey: .source)
            try container.encode(ownerID, forKey: .ownerID)
            try metadata.encode(to: encoder)
            if let file { try container.encode(file, forKey: .file) }
        }
    }
}
