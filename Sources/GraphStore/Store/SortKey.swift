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
/// is folded inline, and any other character (grapheme cluster) through a table filled from
/// Foundation's folding the first time it is met. Per cluster, not per scalar: marks compose with
/// their base, jamo with each other, and Foundation keeps the variation selector of "❤️" but
/// drops one after a letter; none of that crosses a cluster's edge.
enum SortKey {
    static let separator: UInt8 = 0x01

    private struct Folds {
        let primary: [UInt8]
        let accents: [UInt8]
    }

    private static let table = Mutex<[Character: Folds]>([:])
    private static let tableLimit = 50_000

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

    /// Character by character (grapheme clusters: a letter with its marks, a jamo syllable, an
    /// emoji sequence), each non-ASCII one folded once by Foundation and kept in the table.
    private static func nonASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var primary: [UInt8] = [], accents: [UInt8] = []
        primary.reserveCapacity(bytes.count)
        accents.reserveCapacity(bytes.count)
        table.withLock { table in
            for character in String(decoding: bytes, as: UTF8.self) {
                if let byte = character.asciiValue, character.utf8.count == 1 {
                    let lowered = byte &- 0x41 < 26 ? byte | 0x20 : byte
                    if byte >= 0x20 && byte != 0x7F { primary.append(lowered) }
                    accents.append(lowered)
                    continue
                }
                let folds = table[character] ?? fill(&table, character)
                primary.append(contentsOf: folds.primary)
                accents.append(contentsOf: folds.accents)
            }
        }
        return joined(primary, accents)
    }

    /// The character's folds; kept unless the table is full (a feed of endless mark combinations).
    private static func fill(_ table: inout [Character: Folds], _ character: Character) -> Folds {
        let text = String(character)
        let folds = Folds(primary: Array(primaryFold(text).utf8), accents: Array(FoldFunction.fold(text).utf8))
        if table.count < tableLimit { table[character] = folds }
        return folds
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
