import Foundation

/// `photosync changes` output: a table, one object with the token, or lines ending with the token.
enum ChangesOutput {
    static func render(_ changes: [CatalogChange], token: String, as format: ChangesFormat) throws -> String {
        switch format {
        case .json: return try JSONOutput.render(Page(changes: changes, token: token))
        case .jsonl: return try JSONLines.render(changes) + JSONOutput.render(["token": token])
        case .text: return text(changes, token: token)
        }
    }

    private struct Page: Encodable {
        let changes: [CatalogChange]
        let token: String
    }

    private static func text(_ changes: [CatalogChange], token: String) -> String {
        let lines = changes.map { change in
            let fields = (change.fields ?? [:]).sorted { $0.key < $1.key }.map { name, field in
                guard let field, change.kind == .updated else { return name }
                return "\(name): \(field.before ?? "-") → \(field.after ?? "-")"
            }
            let parts = [timestamp(change.at), change.run.map { "run \($0)" } ?? (change.author ?? "-"), change.kind.rawValue,
                         change.entity, change.id] + (fields.isEmpty ? [] : [fields.joined(separator: "; ")])
            return TerminalText.escaped(parts.joined(separator: "  "))
        }
        return (lines + ["token \(token)"]).joined(separator: "\n") + "\n"
    }
}
