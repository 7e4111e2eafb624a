import Foundation
import PhotoFeed

/// What `show` prints: every field of one photo, as labelled lines or one JSON object.
enum ShowOutput {
    static func render(_ photo: PhotoDetails, file: ShownFile? = nil, as format: ReportFormat, time: TableTime = .utc) throws -> String {
        switch format {
        case .json:
            return try JSONOutput.render(Record(photo: photo, file: file))
        case .text:
            let listing = photo.listing
            var fields = [
                ("id", listing.id), ("title", listing.title), ("subtitle", listing.subtitle),
                ("photographer", listing.photographer), ("owner id", photo.ownerID),
                ("uploaded", listing.uploaded.map(time.text) ?? "unknown"), ("image", listing.imageURL), ("page", photo.pageURL),
            ]
            if let file { fields.append(("file", "\(file.path) (\(file.file.size) bytes, sha256 \(file.file.sha256))")) }
            let width = fields.map(\.0.count).max() ?? 0
            return fields.map { label, value in
                label + ":" + String(repeating: " ", count: width - label.count + 1) + TerminalText.escaped(value) + "\n"
            }.joined()
        }
    }

    /// `list`'s keys plus `page_url`, `sizes` (by suffix, only those the feed gave) and `file`
    /// (null without a verified file).
    private struct Record: Encodable {
        var photo: PhotoDetails
        var file: ShownFile?

        enum CodingKeys: String, CodingKey {
            case pageURL = "page_url"
            case file, sizes
        }

        struct Size: Encodable {
            var url: String
            var width: Int?
            var height: Int?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(url, forKey: .url)
                try container.encode(width, forKey: .width)
                try container.encode(height, forKey: .height)
            }

            enum CodingKeys: String, CodingKey { case url, width, height }
        }

        func encode(to encoder: any Encoder) throws {
            try PhotoListOutput.Record(photo.listing).encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(photo.pageURL, forKey: .pageURL)
            let sizes = photo.listing.metadata.sizes.map { ($0.suffix, Size(url: $0.url, width: $0.width, height: $0.height)) }
            try container.encode(Dictionary(sizes, uniquingKeysWith: { first, _ in first }), forKey: .sizes)
            try container.encode(file, forKey: .file)
        }
    }
}

/// A photo's verified file as `show` prints it: `path` absolute in this host's files folder.
struct ShownFile: Encodable {
    var path: String
    var file: VerifiedFile
    var downloaded: Date?

    enum CodingKeys: String, CodingKey {
        case path, size, sha256, downloaded
        case sizeLabel = "size_label"
        case contentType = "content_type"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(file.size, forKey: .size)
        try container.encode(file.sha256, forKey: .sha256)
        try container.encode(file.sizeLabel, forKey: .sizeLabel)
        try container.encode(file.contentType, forKey: .contentType)
        try container.encode(downloaded.map(timestamp), forKey: .downloaded)
    }
}
