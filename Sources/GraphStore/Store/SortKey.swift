import Foundation  // String.folding (not in FoundationEssentials)
import Synchronization

/// The key behind ``TextFolding/sortKey(_:)``: compared byte by byte, it orders text as a
/// dictionary does, on SQLite and PostgreSQL alike (both compare text as bytes here).
///
/// The key is the text case-folded with its accents stripped and its control characters dropped
/// (the primary level); when that differs from the text case-folded with its accents kept, a
/// U+0001 and the latter follow (the accent level). No primary holds U+0001, so a shorter
/// primary sorts first, and "cote" < "coté" < "côte" < "cotes".
///
/// Foundation's folding costs ~13 µs a title, more than the rest of a photo's import. So ASCII
/// is folded inline, and any other scalar through a table filled from Foundation's folding the
/// first time the scalar is met. Text with combining marks or conjoining jamo, whose folding
/// depends on their neighbours (composition), takes Foundation's path whole.
enum SortKey {
    static let separator: UInt8 = 0x01

    private struct Folds {
        let primary: [UInt8]
        let accents: [UInt8]
    }

    private static let table = Mutex<[UInt32: Folds]>([:])

    static func make(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte >= 0x7F { return nonASCII(bytes) }
            return String(unsafeUninitializedCapacity: bytes.count) { buffer in
                for (index, byte) in bytes.enumerated() { buffer[index] = byte &- 0x41 < 26 ? byte | 0x20 : byte }
                return bytes.count
            }
        }
    }

    /// The per-scalar path, or Foundation's for text whose folding depends on context.
    private static func nonASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var primary: [UInt8] = [], accents: [UInt8] = []
        primary.reserveCapacity(bytes.count)
        accents.reserveCapacity(bytes.count)
        let local = table.withLock { table -> Bool in
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            while case .scalarValue(let scalar) = decoder.decode(&iterator) {
                if scalar.value < 0x80 {
                    let byte = UInt8(scalar.value)
                    let lowered = byte &- 0x41 < 26 ? byte | 0x20 : byte
                    if byte >= 0x20 && byte != 0x7F { primary.append(lowered) }
                    accents.append(lowered)
                    continue
                }
                if dependsOnContext(scalar) { return false }
                let folds = table[scalar.value] ?? fill(&table, scalar)
                primary.append(contentsOf: folds.primary)
                accents.append(contentsOf: folds.accents)
            }
            return true
        }
        guard local else { return slow(String(decoding: bytes, as: UTF8.self)) }
        return joined(primary, accents)
    }

    private static func fill(_ table: inout [UInt32: Folds], _ scalar: Unicode.Scalar) -> Folds {
        let text = String(Character(scalar))
        let folds = Folds(primary: Array(primaryFold(text).utf8), accents: Array(FoldFunction.fold(text).utf8))
        table[scalar.value] = folds
        return folds
    }

    /// Marks combine with the scalar before them, conjoining jamo with each other (NFC); Foundation
    /// drops a zero-width non-joiner and the halfwidth sound marks only after another scalar
    /// (found by `SortKeyTests`, which compares the two paths for every scalar).
    private static func dependsOnContext(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return (0x1100...0x11FF).contains(scalar.value) || (0xA960...0xA97F).contains(scalar.value)
            || (0xD7B0...0xD7FF).contains(scalar.value) || [0x200C, 0xFF9E, 0xFF9F].contains(scalar.value)
        }
    }

    /// Foundation's folding of the whole text: what the per-scalar path must equal.
    static func slow(_ text: String) -> String {
        joined(Array(primaryFold(text).utf8), Array(FoldFunction.fold(text).utf8))
    }

    /// Case folded, accents stripped, control characters dropped (NFC).
    private static func primaryFold(_ text: String) -> String {
        let folded = text.decomposedStringWithCanonicalMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .precomposedStringWithCanonicalMapping
        return String(String.UnicodeScalarView(folded.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    }

    private static func joined(_ primary: [UInt8], _ accents: [UInt8]) -> String {
        guard primary != accents else { return String(decoding: primary, as: UTF8.self) }
        return String(decoding: primary + [separator] + accents, as: UTF8.self)
    }
}
