/// Statement text for PostgreSQL.
enum PostgresSQL {
    /// SQLite's placeholders as PostgreSQL's: `?N` is `$N`, and a bare `?` takes the number after
    /// the highest so far (SQLite's rule). Quoted text, identifiers and `$$` bodies are left alone.
    static func numberedPlaceholders(_ sql: String) -> String {
        var output = ""
        output.reserveCapacity(sql.utf8.count + 16)
        var highest = 0
        var quote: Character?
        var characters = sql[...]
        while let character = characters.popFirst() {
            if let open = quote {
                output.append(character)
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                output.append(character)
            case "$" where characters.first == "$":
                characters.removeFirst()
                output += "$$"
                if let end = characters.firstRange(of: "$$") {
                    output += characters[..<end.upperBound]
                    characters = characters[end.upperBound...]
                }
            case "?":
                let digits = characters.prefix(while: \.isASCIIDigit)
                characters = characters.dropFirst(digits.count)
                let number = digits.isEmpty ? highest + 1 : Int(digits) ?? 0
                highest = max(highest, number)
                output += "$\(number)"
            default:
                output.append(character)
            }
        }
        return output
    }

    /// `url` with its password (URL userinfo or a `password=` pair) replaced by `***`, for messages.
    static func redacted(_ url: String) -> String {
        var text = url
        if let scheme = text.firstRange(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@"),
            let colon = text[scheme.upperBound..<at].firstIndex(of: ":") {
            text.replaceSubrange(text.index(after: colon)..<at, with: "***")
        }
        return text.replacing(/(password\s*=\s*)('[^']*'|[^&\s]*)/.ignoresCase()) { match in match.output.1 + "***" }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
