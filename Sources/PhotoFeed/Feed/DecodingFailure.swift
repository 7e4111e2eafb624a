/// The one-line message for a body that is not JSON: what is wrong and where, then how the
/// body starts, because that alone tells an HTML error page from a truncated download.
enum DecodingFailure {
    static let shownPrefixBytes = 15

    static func message(_ error: JSONSyntaxError, body: [UInt8], json: Range<Int>) -> String {
        "not JSON: \(error.description) (body starts with \(bodyStart(body, json)))"
    }

    /// Decoding with repair, because the cut may split a multi-byte character.
    private static func bodyStart(_ body: [UInt8], _ json: Range<Int>) -> String {
        let prefix = body[json.lowerBound..<min(json.upperBound, json.lowerBound + shownPrefixBytes)]
        return "'\(String(String(decoding: prefix, as: UTF8.self).map { $0.isNewline ? " " : $0 }))'"
    }
}
