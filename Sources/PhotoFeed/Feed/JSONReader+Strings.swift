extension JSONReader {
    /// Reads a string value (the reader is on its opening quote). Strings without escapes,
    /// nearly all of them, are made straight from the input bytes without validating them again:
    /// the input is valid UTF-8 (`UTF8Check`), and bytes between two ASCII quotes are whole
    /// characters. (Validating each string again was a tenth of decoding.)
    mutating func readString() throws(JSONSyntaxError) -> String {
        let start = position + 1
        guard try passPlainString() else { return try readEscapedString(from: start) }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)])
        return unsafe String(copying: UTF8Span(unchecked: text.span))
    }

    /// Reads an object key (the reader is on its opening quote) without making a `String`.
    mutating func readKey() throws(JSONSyntaxError) -> JSONKey {
        let start = position + 1
        guard try passPlainString() else { return JSONKey(decoded: Array(try readEscapedString(from: start).utf8)) }
        return JSONKey(UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)]))
    }

    /// From the opening quote, passes a string without escapes and its closing quote (true), or
    /// stops on the first backslash (false), for the caller to decode the rest.
    private mutating func passPlainString() throws(JSONSyntaxError) -> Bool {
        position += 1
        skipOrdinaryWords()
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return true
            }
            if byte == UInt8(ascii: "\\") { return false }
            if byte < 0x20 { throw syntaxError("control character in a string") }
            position += 1
        }
        throw unexpectedEnd()
    }

    /// Passes over a string value without making it.
    mutating func skipString() throws(JSONSyntaxError) {
        position += 1
        skipOrdinaryWords()
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return
            }
            if byte == UInt8(ascii: "\\") {
                try readEscape { _ in }
            } else if byte < 0x20 {
                throw syntaxError("control character in a string")
            } else {
                position += 1
            }
        }
        throw unexpectedEnd()
    }

    /// Moves to the first quote, backslash or control byte (or to the last few bytes, fewer than a
    /// word), eight bytes at a time: the byte loops then start on the byte that ends the string.
    /// (Byte by byte, scanning strings was the decoder's largest cost.)
    @inline(__always)
    private mutating func skipOrdinaryWords() {
        #if _endian(little)
        guard let base = bytes.baseAddress else { return }
        while position + 8 <= end {
            let found = Self.specialBytes(UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            if found != 0 {
                position += found.trailingZeroBitCount / 8
                return
            }
            position += 8
        }
        #endif
    }

    /// The high bit of each byte of `word` that is `"`, `\` or below 0x20. Each test flags a byte
    /// that is zero (after the XOR) or below the bound; a borrow may also flag a byte above a
    /// flagged one, never below, so the lowest flag is exact and no flag means none.
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let found = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
        return found & (ones &* 0x80)
    }

    /// The slow path: copies the string's bytes from `start` (after the quote), decoding escapes.
    private mutating func readEscapedString(from start: Int) throws(JSONSyntaxError) -> String {
        var decoded = Array(bytes[start..<position])
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: decoded, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                try readEscape { decoded.append($0) }
            } else if byte < 0x20 {
                throw syntaxError("control character in a string")
            } else {
                decoded.append(byte)
                position += 1
            }
        }
        throw unexpectedEnd()
    }

    /// Reads one escape sequence (the reader is on its backslash) and hands over its UTF-8.
    /// A `\u` surrogate that is not half of a pair becomes U+FFFD rather than failing the page.
    private mutating func readEscape(_ append: (UInt8) -> Void) throws(JSONSyntaxError) {
        position += 1
        guard position < end else { throw unexpectedEnd() }
        let simple: UInt8? = switch bytes[position] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes[position]
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
        if let simple {
            append(simple)
            position += 1
            return
        }
        guard bytes[position] == UInt8(ascii: "u") else { throw syntaxError("invalid escape \(shownByte())") }
        position += 1
        let scalar = try readUnicodeEscape()
        Unicode.UTF8.encode(scalar) { append($0) }
    }

    /// After `\u`: four hex digits, and for a high surrogate, the `\uXXXX` low half that should follow.
    /// `\u0000` becomes U+FFFD (``FeedText``): both catalogs hold the same text.
    private mutating func readUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let unit = try readHexQuad()
        guard unit != 0 else { return FeedText.nulReplacement }
        guard (0xD800...0xDBFF).contains(unit) else { return Unicode.Scalar(unit) ?? "\u{FFFD}" }
        guard position + 1 < end, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
            return "\u{FFFD}"
        }
        let resume = position
        position += 2
        let low = try readHexQuad()
        guard (0xDC00...0xDFFF).contains(low) else {
            position = resume
            return "\u{FFFD}"
        }
        return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
    }

    private mutating func readHexQuad() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < end else { throw unexpectedEnd() }
            guard let digit = Self.hexValue(bytes[position]) else { throw syntaxError("invalid \\u escape: \(shownByte())") }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
