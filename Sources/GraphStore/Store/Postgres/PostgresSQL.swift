#if canImport(Glibc)
import Glibc
#endif

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

    /// `values` (of one storage class, none nil) as one PostgreSQL array: its type and its literal,
    /// every element quoted (so "NULL" is text) with `"` and `\` escaped.
    static func array(_ values: [StoredValue]) -> (type: String, literal: String) {
        let type = switch values.first {
        case .integer: "bigint[]"
        case .real: "double precision[]"
        case .blob: "bytea[]"
        default: "text[]"
        }
        // Built as bytes (`replacing` twice per element was 8% of a PostgreSQL re-import's client CPU).
        return (type, PostgresBatchSQL.arrayText(values))
    }

    /// Seconds libpq waits for a server to accept a connection when neither the connection string
    /// (`connect_timeout`) nor the environment (`PGCONNECT_TIMEOUT`) says: libpq's own default
    /// is to wait forever, and a port that accepts and never answers would hang every command.
    static let defaultConnectTimeout = 10

    /// `conninfo` with ``defaultConnectTimeout`` added, unless it or the environment sets one.
    static func withConnectTimeout(_ conninfo: String) -> String {
        guard !conninfo.lowercased().contains("connect_timeout"), getenv("PGCONNECT_TIMEOUT") == nil
        else { return conninfo }
        let pair = "connect_timeout=\(defaultConnectTimeout)"
        let lowered = conninfo.lowercased()
        guard lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") else { return conninfo + " " + pair }
        return conninfo + (conninfo.contains("?") ? "&" : "?") + pair
    }

    /// `url` with its password (URL userinfo or a `password=` pair) replaced by `***`, for messages.
    static func redacted(_ url: String) -> String {
        var text = url
        if let password = userinfoPassword(url) { text.replaceSubrange(password, with: "***") }
        return text.replacing(passwordPair) { match in match.output.1 + "***" }
    }

    /// A libpq message about `conninfo`, for a ``GraphStoreError``: on one line (its lines trimmed,
    /// without "FATAL:  ", joined by "; "), and with the password replaced by `***` wherever it
    /// appears (libpq quotes a malformed URL's tokens, a password among them).
    static func connectionMessage(_ message: String, conninfo: String) -> String {
        let lines = message.split(whereSeparator: \.isNewline).map { line in
            line.trimmingPrefix(while: \.isWhitespace).replacing(/(FATAL|ERROR):\s+/, with: "")
        }
        var text = lines.filter { !$0.isEmpty }.joined(separator: "; ")
        for password in passwords(conninfo) { text = text.replacing(password, with: "***") }
        return text
    }

    private static var passwordPair: Regex<(Substring, Substring, Substring)> { /(password\s*=\s*)('[^']*'|[^&\s]*)/.ignoresCase() }

    /// Where a URL's userinfo holds a password (`user:password@`).
    private static func userinfoPassword(_ url: String) -> Range<String.Index>? {
        guard let scheme = url.firstRange(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@"),
            let colon = url[scheme.upperBound..<at].firstIndex(of: ":") else { return nil }
        return url.index(after: colon)..<at
    }

    /// The passwords written in `conninfo`, as written (quotes of a `key='value'` pair removed).
    static func passwords(_ conninfo: String) -> [String] {
        var found = userinfoPassword(conninfo).map { [String(conninfo[$0])] } ?? []
        for match in conninfo.matches(of: passwordPair) {
            var value = match.output.2
            if value.count >= 2, value.hasPrefix("'"), value.hasSuffix("'") { value = value.dropFirst().dropLast() }
            found.append(String(value))
        }
        return found.filter { !$0.isEmpty }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
