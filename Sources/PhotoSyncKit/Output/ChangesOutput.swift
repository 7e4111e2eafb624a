import Foundation

/// `photosync changes` output: a table, one object with the token, or lines ending with the token.
enum ChangesOutput {
    static func render(_ changes: [CatalogChange], token: String, as format: ChangesFormat) throws -> String {
        switch format {
        case .json: return try JSONOutput.render(Page(changes: changes, token: token))
        case .jsonl, .text: return try lines(changes, as: format) + tokenLine(token, as: format)
        }
    }

    private struct Page: Encodable {
        let changes: [CatalogChange]
        let token: String
    }

    /// The changes alone, one line each (text or jsonl): what `--follow` prints as they commit.
    static func lines(_ changes: [CatalogChange], as format: ChangesFormat) throws -> String {
        guard format == .text else { return try JSONLines.render(changes) }
        return changes.map { text($0) + "\n" }.joined()
    }

    /// The last line: the token to pass next time.
    static func tokenLine(_ token: String, as format: ChangesFormat) throws -> String {
        format == .text ? "token \(token)\n" : try JSONOutput.render(["token": token])
    }

    private static func text(_ change: CatalogChange) -> String {
        let fields = (change.fields ?? [:]).sorted { $0.key < $1.key }.map { name, field in
            guard let field, [.updated, .gone, .returned].contains(change.kind) else { return name }
            return "\(name): \(field.before ?? "-") → \(field.after ?? "-")"
        }
        let parts = [timestamp(change.at), change.run.map { "run \($0)" } ?? (change.author ?? "-"), change.kind.rawValue,
                     change.entity, change.id] + (fields.isEmpty ? [] : [fields.joined(separator: "; ")])
        return TerminalText.escaped(parts.joined(separator: "  "))
    }
}
