#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How history stores values as JSON: an integer as a number, text as a string, null as null, a
/// real as `{"real": x}` and a blob as `{"blob": base64}` (so none is taken for another).
/// A change's `fields` object: `{"changed": [names], "values": {name: [before, after]},
/// "tombstone": {name: value}}`, each part left out when empty. A transaction's changes are one
/// array of `[entity, key, kind, fields]`.
enum HistoryJSON {
    /// One buffer of bytes grown in place (a string per row, then joined, was a third of
    /// history's cost; appending to a `String` piece by piece, a tenth of deleting many rows).
    static func encode(_ rows: [HistoryChangeRow]) -> String {
        var json: [UInt8] = [UInt8(ascii: "[")]
        json.reserveCapacity(rows.count * 64 + 2)
        var entity = "", quotedEntity = ""
        for (index, row) in rows.enumerated() {
            if row.entity != entity { (entity, quotedEntity) = (row.entity, quoted(row.entity)) }
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(UInt8(ascii: "["))
            json.append(contentsOf: quotedEntity.utf8)
            json.append(UInt8(ascii: ","))
            json.append(contentsOf: row.key.utf8)
            json.append(contentsOf: (row.kind == .inserted ? ",1," : row.kind == .updated ? ",2," : ",3,").utf8)
            json.append(contentsOf: row.fields.utf8)
            json.append(UInt8(ascii: "]"))
        }
        json.append(UInt8(ascii: "]"))
        return String(decoding: json, as: UTF8.self)
    }

    static func decodeChanges(_ json: String) throws -> [HistoryChange] {
        try JSONDecoder().decode([CodedChange].self, from: Data(json.utf8)).map(\.change)
    }

    static func encode(_ value: StoredValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let integer): String(integer)
        case .real(let real): "{\"real\":\(real.isFinite ? "\(real)" : "null")}"
        case .text(let text): quoted(text)
        case .blob(let data): "{\"blob\":\"\(data.base64EncodedString())\"}"
        }
    }

    static func encode(_ fields: HistoryFields) -> String {
        var parts: [String] = []
        if !fields.changed.isEmpty { parts.append("\"changed\":[" + fields.changed.map(quoted).joined(separator: ",") + "]") }
        if !fields.values.isEmpty {
            let values = fields.values.sorted { $0.key < $1.key }.map { "\(quoted($0.key)):[\(encode($0.value.before)),\(encode($0.value.after))]" }
            parts.append("\"values\":{" + values.joined(separator: ",") + "}")
        }
        if !fields.tombstone.isEmpty {
            let values = fields.tombstone.sorted { $0.key < $1.key }.map { "\(quoted($0.key)):\(encode($0.value))" }
            parts.append("\"tombstone\":{" + values.joined(separator: ",") + "}")
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// A delete's fields, `{"tombstone":{…}}` as the fields encoder writes them, grown in place as
    /// bytes: `names` are quoted and in name order (a dictionary sorted per row was most of the
    /// history cost of deleting many rows).
    static func tombstone(names: [String], values: [StoredValue]) -> String {
        guard !names.isEmpty else { return "{}" }
        var json: [UInt8] = []
        json.reserveCapacity(names.count * 32 + 16)
        json.append(contentsOf: "{\"tombstone\":{".utf8)
        for (index, name) in names.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(contentsOf: name.utf8)
            json.append(UInt8(ascii: ":"))
            append(values[index], to: &json)
        }
        json.append(contentsOf: "}}".utf8)
        return String(decoding: json, as: UTF8.self)
    }

    /// `encode(value)`'s bytes; text is copied whole when it needs no escape.
    private static func append(_ value: StoredValue, to json: inout [UInt8]) {
        guard case .text(var text) = value else { return json.append(contentsOf: encode(value).utf8) }
        text.withUTF8 { utf8 in
            guard !utf8.contains(where: needsEscape) else { return appendQuoted(utf8, to: &json) }
            json.append(UInt8(ascii: "\""))
            json.append(contentsOf: utf8)
            json.append(UInt8(ascii: "\""))
        }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool { byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") }

    private static func fields(_ coded: CodedFields) -> HistoryFields {
        HistoryFields(
            changed: coded.changed ?? [],
            values: (coded.values ?? [:]).compactMapValues { pair in
                pair.count == 2 ? HistoryChange.ValueChange(before: pair[0].value, after: pair[1].value) : nil
            },
            tombstone: (coded.tombstone ?? [:]).mapValues(\.value))
    }

    static func quoted(_ text: String) -> String {
        // Most keys and names need no escaping: one pass over the bytes, no per-scalar appends.
        if !text.utf8.contains(where: needsEscape) { return "\"" + text + "\"" }
        var json: [UInt8] = []
        appendQuoted(text.utf8, to: &json)
        return String(decoding: json, as: UTF8.self)
    }

    /// `utf8` as a JSON string. Byte by byte is exact: no byte of a multi-byte character is below 0x80.
    private static func appendQuoted(_ utf8: some Sequence<UInt8>, to json: inout [UInt8]) {
        let (quote, backslash) = (UInt8(ascii: "\""), UInt8(ascii: "\\"))
        json.append(quote)
        for byte in utf8 {
            if byte == quote || byte == backslash {
                json.append(backslash)
                json.append(byte)
            } else if byte < 0x20 {
                json.append(contentsOf: "\\u00".utf8)
                json.append(contentsOf: (byte < 0x10 ? "0" : "").utf8)
                json.append(contentsOf: String(byte, radix: 16).utf8)
            } else {
                json.append(byte)
            }
        }
        json.append(quote)
    }

    private struct CodedChange: Decodable {
        let change: HistoryChange

        init(from decoder: any Decoder) throws {
            var parts = try decoder.unkeyedContainer()
            let entity = try parts.decode(String.self)
            let key = try parts.decode(CodedValue.self).value
            let kind = HistoryChange.Kind(rawValue: try parts.decode(Int.self)) ?? .updated
            let decoded = HistoryJSON.fields(try parts.decode(CodedFields.self))
            change = HistoryChange(entity: entity, key: key, kind: kind, changedAttributes: decoded.changed, values: decoded.values,
                                   tombstone: decoded.tombstone)
        }
    }

    private struct CodedFields: Decodable {
        var changed: [String]?
        var values: [String: [CodedValue]]?
        var tombstone: [String: CodedValue]?
    }

    private struct CodedValue: Decodable {
        let value: StoredValue

        private enum Keys: String, CodingKey { case real, blob }

        init(from decoder: any Decoder) throws {
            if let object = try? decoder.container(keyedBy: Keys.self) {
                if let real = try object.decodeIfPresent(Double.self, forKey: .real) {
                    value = .real(real)
                } else if let base64 = try object.decodeIfPresent(String.self, forKey: .blob), let data = Data(base64Encoded: base64) {
                    value = .blob(data)
                } else {
                    value = object.contains(.real) ? .real(.nan) : .null
                }
                return
            }
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                value = .null
            } else if let integer = try? single.decode(Int64.self) {
                value = .integer(integer)
            } else {
                value = .text(try single.decode(String.self))
            }
        }
    }
}

/// What a change says about attributes (see ``HistoryChange``).
struct HistoryFields {
    var changed: [String] = []
    var values: [String: HistoryChange.ValueChange] = [:]
    var tombstone: [String: StoredValue] = [:]
}
