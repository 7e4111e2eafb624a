/// Finds the JSON inside a JSONP body. Without `nojsoncallback=1` Flickr answers
/// `jsonFlickrApi({...})`, and since 2016 prefixes it with `/**/` (which broke node-flickrapi),
/// so both forms are accepted, with any callback name, surrounding whitespace and a trailing `;`.
/// A leading UTF-8 byte-order mark is skipped.
enum JSONPUnwrapper {
    /// The byte range of the JSON text: the whole body (less surrounding whitespace) when it is
    /// not JSONP, the inside of the call when it is.
    static func jsonRange(in body: [UInt8]) throws(FeedError) -> Range<Int> {
        var start = skipWhitespace(body, from: body.starts(with: byteOrderMark) ? byteOrderMark.count : 0)
        var end = body.count
        while end > start && isWhitespace(body[end - 1]) { end -= 1 }
        guard start < end else { throw .malformed(body.isEmpty ? "empty body" : "body is only whitespace") }
        if body[start...].starts(with: "/**/".utf8) {
            start = min(skipWhitespace(body, from: start + 4), end)
            guard start < end else { throw .malformed("body is only a JSONP comment") }
        }
        guard let open = callOpeningParenthesis(body, from: start) else { return start..<end }
        if body[end - 1] == UInt8(ascii: ";") { end -= 1 }
        while end > open && isWhitespace(body[end - 1]) { end -= 1 }
        guard end > open + 1, body[end - 1] == UInt8(ascii: ")") else {
            throw .malformed("JSONP call \(callName(body, start..<open))( is not closed with \")\"")
        }
        if end - 1 == open + 1 { throw .malformed("JSONP call \(callName(body, start..<open))() holds no JSON") }
        return (open + 1)..<(end - 1)
    }

    /// UTF-8's byte-order mark: JSON lets a parser ignore it, and some proxies add it.
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The index of `(` when the text at `start` is `identifier(`; nil when it is anything else.
    private static func callOpeningParenthesis(_ body: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < body.count && isIdentifierByte(body[index], first: index == start) { index += 1 }
        guard index > start else { return nil }
        index = skipWhitespace(body, from: index)
        return index < body.count && body[index] == UInt8(ascii: "(") ? index : nil
    }

    private static func callName(_ body: [UInt8], _ range: Range<Int>) -> String {
        String(decoding: body[range], as: UTF8.self).trimmed
    }

    private static func isIdentifierByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "."):
            true
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            !first
        default:
            false
        }
    }

    private static func skipWhitespace(_ body: [UInt8], from start: Int) -> Int {
        var index = start
        while index < body.count && isWhitespace(body[index]) { index += 1 }
        return index
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
