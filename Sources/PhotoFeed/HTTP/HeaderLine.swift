/// One raw header line from libcurl: a status line (a new response begins), a `name: value`
/// field, or neither (the blank line that ends the headers). Read as bytes: through String's
/// Unicode-aware splitting and trimming, an image's eight or so lines cost more CPU than
/// libcurl's whole handling of the response. Padding is HTTP's: spaces, tabs, CR and LF.
enum HeaderLine: Equatable {
    case status(Int)
    /// The name in lower case, the value without its padding.
    case field(name: String, value: String)
    case other

    init(_ line: UnsafeRawBufferPointer) {
        if line.starts(with: "HTTP/".utf8) {
            let code = line.drop { $0 != UInt8(ascii: " ") }.drop { $0 == UInt8(ascii: " ") }.prefix { (0x30...0x39).contains($0) }
            self = .status(Int(String(decoding: code.prefix(9), as: UTF8.self)) ?? 0)
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let name = Self.trimmed(line[..<colon]).map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
            self = .field(name: String(decoding: name, as: UTF8.self), value: String(decoding: Self.trimmed(line[(colon + 1)...]), as: UTF8.self))
        } else {
            self = .other
        }
    }

    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        let padding: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        guard let first = bytes.firstIndex(where: { !padding($0) }), let last = bytes.lastIndex(where: { !padding($0) }) else {
            return bytes[bytes.endIndex...]
        }
        return bytes[first...last]
    }
}
