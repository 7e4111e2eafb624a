import GraphStore

/// What a photographer name typed on the command line names among those in the catalog.
///
/// Names are stored byte for byte, so `--photographer "ana lima"` used to find nothing and exit 0.
/// The rules: an exact name always wins; else exactly one name equal after case folding is taken
/// (the caller says so, or, for a delete, asks for the exact name); else the user gets the closest
/// names: case-folded equals (several), names the typed text starts (`Ana` → `Ana Lima`), and
/// names within a few edits.
enum PhotographerNameMatch: Equatable {
    case exact(String)
    /// The one name that equals the typed one after case folding.
    case caseFolded(String)
    /// No single match: the closest names (at most three; none when nothing is close).
    case unknown(suggestions: [String])

    static let maximumSuggestions = 3

    static func resolve(_ typed: String, among names: [String]) -> PhotographerNameMatch {
        if names.contains(typed) { return .exact(typed) }
        let folded = TextFolding.caseFolded(typed)
        let foldedNames = names.map { ($0, TextFolding.caseFolded($0)) }
        let equal = foldedNames.filter { $0.1 == folded }.map(\.0)
        if equal.count == 1 { return .caseFolded(equal[0]) }
        if !equal.isEmpty { return .unknown(suggestions: Array(equal.sorted().prefix(maximumSuggestions))) }
        return .unknown(suggestions: closest(to: folded, among: foldedNames))
    }

    /// Names the folded text starts (a first name, say), then names within `max(2, length / 3)` edits.
    private static func closest(to folded: String, among names: [(String, String)]) -> [String] {
        let prefixed = names.filter { !folded.isEmpty && $0.1.hasPrefix(folded) }.map(\.0).sorted()
        let near = names.map { ($0.0, editDistance(folded, $0.1)) }
            .filter { $0.1 <= max(2, folded.count / 3) }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            .map(\.0)
        var seen = Set<String>()
        return (prefixed + near).filter { seen.insert($0).inserted }.prefix(maximumSuggestions).map { $0 }
    }

    /// `no photographer named 'ana'; did you mean 'Ana Lima' or 'Ana Luz'?`
    static func unknownMessage(_ typed: String, suggestions: [String], what: String = "photographer") -> String {
        let base = "no \(what) named '\(typed)'"
        guard !suggestions.isEmpty else { return base }
        return base + "; did you mean " + suggestions.map { "'\($0)'" }.joined(separator: " or ") + "?"
    }
}
