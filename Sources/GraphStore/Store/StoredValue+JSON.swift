extension StoredValue {
    /// `values` as a JSON array, for SQLite's `json_each` (an import's lookup binds its keys as one
    /// parameter), or nil when a value would not make the trip exactly: a real, a blob, text with NUL.
    static func jsonArray(_ values: [StoredValue]) -> String? {
        var json: [UInt8] = [UInt8(ascii: "[")]
        json.reserveCapacity(values.count * 16 + 2)
        for (index, value) in values.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            switch value {
            case .null: json.append(contentsOf: "null".utf8)
            case .integer(let integer): json.append(contentsOf: String(integer).utf8)
            case .text(var text): guard text.withUTF8({ appendJSONString($0, to: &json) }) else { return nil }
            case .real, .blob: return nil
            }
        }
        json.append(UInt8(ascii: "]"))
        return String(decoding: json, as: UTF8.self)
    }

    /// Appends `utf8` as a JSON string, byte by byte (escaping quotes, backslashes and control characters).
    private static func appendJSONString(_ utf8: UnsafeBufferPointer<UInt8>, to json: inout [UInt8]) -> Bool {
        let (quote, backslash) = (UInt8(ascii: "\""), UInt8(ascii: "\\"))
        json.append(quote)
        // Most keys need no escape: copied whole (byte by byte, a delete's 24,000 keys took 50 M instructions).
        if !utf8.contains(where: { $0 < 0x20 || $0 == quote || $0 == backslash }) {
            json.append(contentsOf: utf8)
            json.append(quote)
            return true
        }
        for byte in utf8 {
            if byte >= 0x20 && byte != quote && byte != backslash {
                json.append(byte)
                continue
            }
            guard byte != 0 else { return false }
            json.append(backslash)
            if byte >= 0x20 {
                json.append(byte)
            } else {
                json.append(contentsOf: "u00".utf8)
                json.append(hexDigit(byte >> 4))
                json.append(hexDigit(byte & 0xF))
            }
        }
        json.append(quote)
        return true
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10 }
}
