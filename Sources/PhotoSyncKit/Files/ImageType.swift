/// The image formats photosync keeps, told apart by their first bytes, never by the URL or
/// `Content-Type`: a CDN or a captive portal serves an HTML error page as `image/jpeg` with 200.
enum ImageType: String, CaseIterable, Sendable {
    case jpeg, png, gif, webp

    /// Bytes needed to tell: WebP's signature ends at byte 12.
    static let signatureLength = 12

    /// The type `prefix` (at least `signatureLength` bytes, unless the file is shorter) starts, or nil.
    static func detect(_ prefix: [UInt8]) -> ImageType? {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            prefix.count >= offset + bytes.count && Array(prefix[offset..<offset + bytes.count]) == bytes
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        return nil
    }

    var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
    var contentType: String { "image/\(rawValue)" }
}
