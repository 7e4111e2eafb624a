extension JSONReader {
    /// Reads a number per the JSON grammar (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`).
    /// Whole numbers that fit are `.int`, computed in place; the rest go through `Double`.
    mutating func readNumber() throws(JSONSyntaxError) -> LenientScalar {
        let start = position
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        guard position < end, isDigit(bytes[position]) else { throw position < end ? unexpectedCharacter() : unexpectedEnd() }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            skipDigits()
        }
        let integerEnd = position
        var isWhole = true
        if position < end && bytes[position] == UInt8(ascii: ".") {
            isWhole = false
            position += 1
            try requireDigits()
        }
        if position < end && (bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")) {
            isWhole = false
            position += 1
            if position < end && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) { position += 1 }
            try requireDigits()
        }
        if isWhole, let value = wholeNumber(from: negative ? start + 1 : start, to: integerEnd, negative: negative) {
            return .int(value)
        }
        let literal = String(decoding: bytes[start..<position], as: UTF8.self)
        return .double(Double(literal) ?? .nan, literal: literal)
    }

    /// `readScalar`, plus a number's literal text as sent (nil for other kinds): an id must keep
    /// its digits, not a `Double`'s rounding of them.
    mutating func readScalarKeepingNumberText() throws(JSONSyntaxError) -> (LenientScalar, String?) {
        guard try nextKind() == .number else { return (try readScalar(), nil) }
        let start = position
        let value = try readNumber()
        return (value, String(decoding: bytes[start..<position], as: UTF8.self))
    }

    /// nil on overflow, so the caller falls back to `Double`.
    private func wholeNumber(from start: Int, to end: Int, negative: Bool) -> Int? {
        var value = 0
        for index in start..<end {
            let digit = Int(bytes[index] - UInt8(ascii: "0"))
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            if overflowA || overflowB { return nil }
            value = next
        }
        return value
    }

    private mutating func requireDigits() throws(JSONSyntaxError) {
        guard position < end else { throw unexpectedEnd() }
        guard isDigit(bytes[position]) else { throw unexpectedCharacter() }
        skipDigits()
    }

    private mutating func skipDigits() {
        while position < end && isDigit(bytes[position]) { position += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
