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

    /// The keys, in the order of ``PhotoSize/suffixes`` (`url_l` is the photo's own: read beside).
    private static let keys: [(url: StaticString, width: StaticString, height: StaticString)] = [
        ("url_sq", "width_sq", "height_sq"), ("url_t", "width_t", "height_t"), ("url_s", "width_s", "height_s"),
        ("url_q", "width_q", "height_q"), ("url_m", "width_m", "height_m"), ("url_n", "width_n", "height_n"),
        ("url_z", "width_z", "height_z"), ("url_c", "width_c", "height_c"), ("url_l", "width_l", "height_l"),
        ("url_o", "width_o", "height_o"),
    ]

    /// Reads `key`'s value when it is a size key; false (nothing read) otherwise.
    mutating func read(_ key: JSONKey, _ reader: inout JSONReader) throws(JSONSyntaxError) -> Bool {
        for (index, names) in Self.keys.enumerated() {
            if key == names.url { urls[index] = try reader.readScalar() }
            else if key == names.width { widths[index] = try reader.readScalar() }
            else if key == names.height { heights[index] = try reader.readScalar() }
            else { continue }
            return true
        }
        return false
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
