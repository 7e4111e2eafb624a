import Foundation

/// One HTTP/1.1 request head: what the gallery reads of a request. Bodies are never read (every
/// endpoint is GET or HEAD), so a request that announces one is answered and its connection closed.
struct HTTPRequestHead: Sendable, Equatable {
    var method: String
    /// The path as sent, still percent-encoded (the router decodes each segment once).
    var path: String
    /// Query items, percent- and `+`-decoded; the first of a repeated name wins.
    var query: [String: String]
    /// Header names lowercased.
    var headers: [String: String]
    var version: String

    func header(_ name: String) -> String? { headers[name] }

    /// HTTP/1.1 keeps the connection unless told to close; HTTP/1.0 only when asked to keep it.
    var keepsAlive: Bool {
        let connection = header("connection")?.lowercased() ?? ""
        return version == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
    }

    /// A body follows the head: it is never read, so the connection cannot carry another request.
    var announcesBody: Bool {
        header("transfer-encoding") != nil || (header("content-length").flatMap(Int.init) ?? 0) > 0
    }

    /// Parses the head (request line and headers, without the blank line). Nil: malformed.
    static func parse(_ bytes: ArraySlice<UInt8>) -> HTTPRequestHead? {
        guard let text = String(validating: bytes, as: UTF8.self), !text.contains("\0") else { return nil }
        var lines = text.components(separatedBy: "\r\n")
        let parts = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, ["HTTP/1.1", "HTTP/1.0"].contains(parts[2]), parts[1].hasPrefix("/") else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix(" "), !line.hasPrefix("\t") else { return nil }
            let name = line[..<colon].lowercased()
            guard !name.isEmpty, !name.contains(" ") else { return nil }
            headers[name] = headers[name] ?? line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let target = parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return HTTPRequestHead(method: String(parts[0]), path: String(target[0]),
                               query: target.count > 1 ? queryItems(target[1]) : [:], headers: headers, version: String(parts[2]))
    }

    static func queryItems(_ text: Substring) -> [String: String] {
        var items: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = formDecoded(halves[0]) else { continue }
            items[name] = items[name] ?? (halves.count > 1 ? formDecoded(halves[1]) : "")
        }
        return items
    }

    private static func formDecoded(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
