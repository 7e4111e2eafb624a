import Foundation  // String.folding and the canonical mappings (not in FoundationEssentials)

/// The SQL function behind case-insensitive matching and sorting. SQLite's own `lower()`, `LIKE`
/// and `NOCASE` fold ASCII only.
///
/// Full Unicode case folding (CaseFolding.txt, status C and F: "ß" and "SS" fold to "ss", "Σ",
/// "σ" and final "ς" to "σ"), applied to the canonical decomposition and recomposed (NFC): a
/// precomposed "é" and "e" + combining accent fold alike. Accents themselves are kept ("é" ≠ "e").
/// Called only by queries that ask for case-insensitivity.
enum FoldFunction {
    static let name = "graphstore_fold"

    static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.decomposedStringWithCanonicalMapping
            .folding(options: .caseInsensitive, locale: nil)
            .precomposedStringWithCanonicalMapping
    }
}
