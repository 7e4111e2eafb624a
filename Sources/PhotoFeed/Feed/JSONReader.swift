/// A forward-only reader over JSON text, made for one job: pulling a few known fields out
/// of large Flickr pages fast. Measured on a 500-photo page, `JSONDecoder` with plain
/// `String?` fields peaks near 180k photos/s (it builds a dictionary per object); this reader
/// makes no intermediate tree and allocates only the strings the caller keeps.
///
/// It validates everything it passes over, including values it skips, so a body it accepts
/// is valid JSON. Input must already be valid UTF-8 (see `UTF8Check`).
struct JSONReader {
    /// The same limit as `JSONDecoder`'s: deeper documents are rejected, never recursed into.
    static let maximumDepth = 512

    enum Kind { case object, array, string, number, bool, null }

    /// The input, borrowed for the reader's lifetime (see `FeedDecoder`): reads are checked against
    /// `end` by the reader itself, so they skip `Array`'s bounds checks.
    let bytes: UnsafeBufferPointer<UInt8>
    let end: Int
    var position: Int
    private var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.bytes = bytes
        self.end = range.upperBound
        self.position = range.lowerBound
    }

    /// The kind of the next value, found from its first byte (after whitespace).
    mutating func nextKind() throws(JSONSyntaxError) -> Kind {
        skipWhitespace()
        guard position < end else { throw unexpectedEnd() }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: throw unexpectedCharacter()
        }
    }

    /// Reads an object, handing each key to `member`, which must consume the value.
    mutating func forEachMember(
        _ member: (inout JSONReader, JSONKey) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        try enter(UInt8(ascii: "{"))
        if try leave(UInt8(ascii: "}")) { return }
        repeat {
            guard try nextKind() == .string else { throw unexpectedCharacter() }
            let key = try readKey()
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
        } while try nextSeparator(closing: UInt8(ascii: "}"))
    }

    /// Reads an array, handing each element's index to `element`, which must consume the value.
    mutating func forEachElement(
        _ element: (inout JSONReader, Int) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        try enter(UInt8(ascii: "["))
        if try leave(UInt8(ascii: "]")) { return }
        var index = 0
        repeat {
            try element(&self, index)
            index += 1
        } while try nextSeparator(closing: UInt8(ascii: "]"))
    }

    /// The next value as a scalar; objects and arrays are skipped and read as `.nonScalar`.
    mutating func readScalar() throws(JSONSyntaxError) -> LenientScalar {
        switch try nextKind() {
        case .string: return .string(try readString())
        case .number: return try readNumber()
        case .bool: return .bool(try readBool())
        case .null: try readLiteral("null"); return .null
        case .object, .array: try skipValue(); return .nonScalar
        }
    }

    /// Passes over the next value, checking its syntax.
    mutating func skipValue() throws(JSONSyntaxError) {
        switch try nextKind() {
        case .object: try forEachMember { reader, _ throws(JSONSyntaxError) in try reader.skipValue() }
        case .array: try forEachElement { reader, _ throws(JSONSyntaxError) in try reader.skipValue() }
        case .string: try skipString()
        case .number: _ = try readNumber()
        case .bool: _ = try readBool()
        case .null: try readLiteral("null")
        }
    }

    /// After the top-level value only whitespace may follow.
    mutating func expectEnd() throws(JSONSyntaxError) {
        skipWhitespace()
        guard position == end else { throw syntaxError("unexpected \(shownByte()) after the JSON value") }
    }

    // MARK: Structure

    /// The depth check comes first, so the error names the bracket one level too deep.
    private mutating func enter(_ opening: UInt8) throws(JSONSyntaxError) {
        skipWhitespace()
        if depth == Self.maximumDepth { throw syntaxError("nested more than \(Self.maximumDepth) levels deep") }
        try expect(opening)
        depth += 1
    }

    /// Consumes `closing` if it comes next (an empty container).
    private mutating func leave(_ closing: UInt8) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard position < end else { throw unexpectedEnd() }
        guard bytes[position] == closing else { return false }
        position += 1
        depth -= 1
        return true
    }

    /// True after a `,`; false after `closing`; anything else is an error.
    private mutating func nextSeparator(closing: UInt8) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard position < end else { throw unexpectedEnd() }
        let byte = bytes[position]
        position += 1
        if byte == UInt8(ascii: ",") { return true }
        if byte == closing { depth -= 1; return false }
        position -= 1
        throw unexpectedCharacter()
    }

    private mutating func expect(_ byte: UInt8) throws(JSONSyntaxError) {
        skipWhitespace()
        guard position < end else { throw unexpectedEnd() }
        guard bytes[position] == byte else { throw unexpectedCharacter() }
        position += 1
    }

    mutating func skipWhitespace() {
        while position < end {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    // MARK: Literals

    private mutating func readBool() throws(JSONSyntaxError) -> Bool {
        if bytes[position] == UInt8(ascii: "t") {
            try readLiteral("true")
            return true
        }
        try readLiteral("false")
        return false
    }

    private mutating func readLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        for offset in 0..<count {
            guard position + offset < end else { position += offset; throw unexpectedEnd() }
            guard bytes[position + offset] == literal.utf8Start[offset] else {
                position += offset
                throw unexpectedCharacter()
            }
        }
        position += count
    }

    // MARK: Errors

    func syntaxError(_ problem: String) -> JSONSyntaxError {
        JSONSyntaxError(problem: problem, offset: position)
    }

    /// Names the last byte there is, not the one past the end.
    func unexpectedEnd() -> JSONSyntaxError {
        JSONSyntaxError(problem: "unexpected end of JSON", offset: max(position, end) - 1)
    }

    func unexpectedCharacter() -> JSONSyntaxError { syntaxError("unexpected \(shownByte())") }

    /// The byte at the current position, printable or as hex; a UTF-8 lead byte is shown
    /// with its whole character.
    func shownByte() -> String {
        guard position < end else { return "end of JSON" }
        let byte = bytes[position]
        if byte >= 0x20 && byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
        if byte >= 0xC0, let character = String(decoding: bytes[position..<min(end, position + 4)], as: UTF8.self).first {
            return "character '\(character)'"
        }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
