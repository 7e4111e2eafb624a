import PhotoSyncTestSupport
import Testing
@testable import GraphStore

/// `TextFolding.sortKey`: the per-scalar table must give exactly Foundation's folding, and the
/// keys must sort as a dictionary does when compared byte by byte.
@Suite("Sort keys", .onTestThreads)
struct SortKeyTests {
    /// Every scalar of the Basic Multilingual Plane and a few beyond it, alone and between ASCII:
    /// the fast path (ASCII inline, a table per scalar) equals Foundation's folding of the whole.
    @Test func theFastPathEqualsFoundationsFolding() {
        let beyond: [UInt32] = [0x1F305, 0x1F600, 0x1F1EF, 0x20000, 0x2A6D6, 0x1D400, 0x10400, 0x10428, 0x1E900]
        var mismatches: [String] = []
        for value in Array(0x01...0xFFFF) + beyond {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for text in [String(Character(scalar)), "Ab\(scalar)Zy"] where SortKey.make(text) != SortKey.slow(text) {
                mismatches.append("U+\(String(value, radix: 16)) in \(text.debugDescription): \(SortKey.make(text).debugDescription) vs \(SortKey.slow(text).debugDescription)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count): \(mismatches.prefix(20).joined(separator: "\n"))")
    }

    /// Emoji with a variation selector and ZWJ sequences take the fast path, whole titles agree.
    @Test func emojiTitlesAgree() {
        for text in ["Sunset ❤️ Lisboa", "❤️", "👩‍👩‍👧 Família", "Río ❤️ Москва 東京 夜景", "Cafe\u{301} ❤\u{FE0E}"] {
            #expect(SortKey.make(text) == SortKey.slow(text), "\(text)")
        }
    }

    @Test func keysSortAsADictionary() {
        let expected = [
            "", "10 pássaros", "9 lives", "_MG_0270.jpg", "Ärger", "a\u{FFFD}b", "Cafe", "CAFÉ", "Cafe\u{301}", "café",
            "Cafés", "CHR_9340.jpg", "STRASSE", "Straße", "Últimos raios", "Zebra", "Σοφία", "東京タワー", "🌅 Sunrise",
        ]
        let sorted = expected.reversed().sorted { a, b in
            let (x, y) = (Array(TextFolding.sortKey(a).utf8), Array(TextFolding.sortKey(b).utf8))
            return x != y ? x.lexicographicallyPrecedes(y) : Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        }
        #expect(sorted == expected)
    }

    @Test func keysFoldCaseAndStripAccentsFirst() {
        #expect(TextFolding.sortKey("Cafe") == "cafe")
        #expect(TextFolding.sortKey("CAFÉ") == "cafe\u{1}café")
        #expect(TextFolding.sortKey("Cafe\u{301}") == TextFolding.sortKey("café"), "decomposed and precomposed alike")
        #expect(TextFolding.sortKey("Straße") == "strasse")
        #expect(TextFolding.sortKey("ΣΟΦΟΣ") == TextFolding.sortKey("σοφος"))
        #expect(TextFolding.sortKey("a\tb") == "ab\u{1}a\tb", "control characters only at the accent level")
    }
}
