/// A search text as a trigram index reads it: runs of three Unicode scalars of its fold
/// (GraphStore's, as `contains(_:_:caseInsensitive:)` folds), as one FTS5 query.
///
/// A text that contains the needle holds every one of its trigrams, so the rows the query finds
/// are a superset of the matches: never one too few. Fewer than three scalars make no trigram.
struct SearchNeedle {
    /// The FTS5 query: trigrams as quoted strings, all required; nil below three scalars.
    let query: String?

    /// A long needle asks for this many trigrams at most: they already narrow to a few rows, and
    /// each one more is one more list for FTS5 to read.
    static let maximumTrigrams = 16

    init(_ text: String) {
        let scalars = Array(FoldFunction.fold(text).unicodeScalars)
        // NUL ends text for SQLite's functions and FTS5's query parser: such a needle is scanned.
        guard scalars.count >= 3, !scalars.contains("\0") else {
            query = nil
            return
        }
        // Trigrams that cover the needle without overlapping (and the last one): every scalar is
        // asked for, and FTS5 reads a third of the lists (on 1M titles, "_mg_39": 0.55 ms instead
        // of 1.4 ms for all four; the candidates were the same 670).
        let starts = Array(stride(from: 0, through: scalars.count - 3, by: 3)) + [scalars.count - 3]
        var seen = Set<String>()
        var terms: [String] = []
        for start in starts where terms.count < Self.maximumTrigrams {
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: scalars[start..<start + 3])
            let text = String(trigram)
            if seen.insert(text).inserted { terms.append("\"" + text.replacing("\"", with: "\"\"") + "\"") }
        }
        query = terms.joined(separator: " AND ")
    }

    /// What the index holds for a row: the folds of its texts, one a line (a trigram across two
    /// lines is one more false candidate, never a missed row).
    static func document(_ texts: [String]) -> String {
        texts.map(FoldFunction.fold).joined(separator: "\n")
    }
}
