import Foundation

/// Feed text made safe for each place in a page. Every value from the feed goes through one of
/// these; attributes are always double-quoted.
enum HTML {
    /// Element text and quoted attribute values: `& < > " '` as entities, and the controls that
    /// could reorder or hide text (bidi overrides, zero-width characters) shown as `\u{202E}`, as
    /// on the terminal.
    static func text(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for character in TerminalText.escaped(value) {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// A feed URL for `href`/`src`: only absolute http and https URLs, escaped as an attribute;
    /// nil for anything else (`javascript:`, `data:`, relative), which the page then leaves out.
    static func externalURL(_ value: String) -> String? {
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host?.isEmpty == false else { return nil }
        return text(url.absoluteString)
    }

    /// One path segment of a link (a photographer's name with `/`, `?` or `#` in it stays one
    /// segment): everything but unreserved characters percent-encoded.
    static func segment(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// A query value: the same encoding as a segment.
    static func query(_ value: String) -> String { segment(value) }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
