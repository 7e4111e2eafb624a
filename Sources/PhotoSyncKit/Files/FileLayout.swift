/// Where a photo's file goes under the files folder: `<id>_<size>.<ext>`, built only from values
/// that cannot leave the folder. The id keeps `[A-Za-z0-9-]`; any other byte becomes `_XX` (its
/// hex), so `/`, `..` and NUL never reach the path and two ids never share a name. Nothing from a
/// title, a name or a URL is used.
enum FileLayout {
    /// The path relative to the files folder.
    static func name(photoID: String, size: String, type: ImageType) -> String {
        "\(safe(photoID))_\(safe(size)).\(type.fileExtension)"
    }

    /// Where a transfer is written before it is verified: a dot name, never a final one, in the
    /// same folder (so the rename is atomic).
    static func temporaryName(photoID: String, size: String) -> String {
        ".\(safe(photoID))_\(safe(size)).part"
    }

    static let temporaryPrefix = "."

    static func safe(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                result.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "_" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return result.isEmpty ? "_" : result
    }
}
