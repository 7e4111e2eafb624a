/// One image size the feed gave for a photo (`url_<suffix>`, `width_<suffix>`, `height_<suffix>`).
public struct PhotoSize: Sendable, Equatable {
    /// Flickr's size suffixes, smallest first.
    public static let suffixes = ["sq", "t", "s", "q", "m", "n", "z", "c", "l", "o"]

    public var suffix: String
    /// `http(s)`, at most 8 KiB, without spaces or control characters.
    public var url: String
    /// Pixels (1–1,000,000); nil when not sent or unusable.
    public var width: Int?
    public var height: Int?

    public init(suffix: String, url: String, width: Int?, height: Int?) {
        (self.suffix, self.url, self.width, self.height) = (suffix, url, width, height)
    }

    /// The sizes as one text column: a line `suffix width height url` each (`-` for an unknown
    /// dimension). Cheaper to store than a table of ten rows per photo.
    public static func encoded(_ sizes: [PhotoSize]) -> String? {
        guard !sizes.isEmpty else { return nil }
        return sizes.map { "\($0.suffix) \($0.width.map(String.init) ?? "-") \($0.height.map(String.init) ?? "-") \($0.url)" }
            .joined(separator: "\n")
    }

    /// The sizes ``encoded(_:)`` wrote; lines that do not parse are left out.
    public static func decoded(_ text: String?) -> [PhotoSize] {
        guard let text else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 3)
            guard parts.count == 4, suffixes.contains(String(parts[0])) else { return nil }
            return PhotoSize(suffix: String(parts[0]), url: String(parts[3]), width: Int(parts[1]), height: Int(parts[2]))
        }
    }
}

/// The raw `url_`/`width_`/`height_` keys of one item, by suffix.
struct RawSizes: Sendable {
    var urls: [LenientScalar?] = Array(repeating: nil, count: PhotoSize.suffixes.count)
    var widths: [LenientScalar?] = Array(repeating: nil, count: PhotoSize.suffixes.count)
    var heights: [LenientScalar?] = Array(repeating: nil, count: PhotoSize.suffixes.count)

    private enum Field: CaseIterable {
        case url, width, height

        /// The key's start: `url_sq`, `width_sq`, `height_sq`.
        var prefix: [UInt8] {
            switch self {
            case .url: Array("url_".utf8)
            case .width: Array("width_".utf8)
            case .height: Array("height_".utf8)
            }
        }
    }

    private static let prefixes = Field.allCases.map { ($0, $0.prefix) }
    private static let suffixes = PhotoSize.suffixes.map { Array($0.utf8) }

    /// Reads `key`'s value when it is a size key (`url_l` is the photo's own: read beside); false
    /// (nothing read) otherwise. The key is taken apart, not compared with the thirty names: an item
    /// carries every size, and the comparisons were a tenth of decoding a page.
    mutating func read(_ key: JSONKey, _ reader: inout JSONReader) throws(JSONSyntaxError) -> Bool {
        guard let (field, index) = key.withUTF8(Self.sizeKey) else { return false }
        switch field {
        case .url: urls[index] = try reader.readScalar()
        case .width: widths[index] = try reader.readScalar()
        case .height: heights[index] = try reader.readScalar()
        }
        return true
    }

    /// The field and the index in ``PhotoSize/suffixes`` a key names, if it is a size key.
    private static func sizeKey(_ key: UnsafeBufferPointer<UInt8>) -> (Field, Int)? {
        guard let (field, prefix) = prefixes.first(where: { key.starts(with: $0.1) }) else { return nil }
        let suffix = key.dropFirst(prefix.count)
        return suffixes.firstIndex { $0.elementsEqual(suffix) }.map { (field, $0) }
    }

    /// The usable sizes, smallest first; `largeURL` stands for `url_l` (read as the photo's image).
    func sizes(largeURL: LenientScalar?) -> [PhotoSize] {
        PhotoSize.suffixes.indices.compactMap { index in
            let raw = PhotoSize.suffixes[index] == "l" ? largeURL : urls[index]
            guard let url = raw?.text?.trimmed, url.utf8.count <= TextCap.url, url.hasPrefix("https://") || url.hasPrefix("http://"),
                  !url.unicodeScalars.contains(where: { $0 == " " || $0.isControl })
            else { return nil }
            return PhotoSize(suffix: PhotoSize.suffixes[index], url: url, width: Self.pixels(widths[index]), height: Self.pixels(heights[index]))
        }
    }

    private static func pixels(_ raw: LenientScalar?) -> Int? {
        raw?.integer.flatMap { (1...1_000_000).contains($0) ? $0 : nil }
    }
}
