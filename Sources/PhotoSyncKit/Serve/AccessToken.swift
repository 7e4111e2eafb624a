import Foundation

/// The token a gallery on a non-loopback address asks for: `?token=` once (answered with a
/// cookie and a redirect to the same URL without it), then the cookie. Compared in constant time.
struct AccessToken: Sendable {
    /// nil: every request is let in (loopback, or `--no-token`).
    let value: String?
    static let cookieName = "photosync_token"

    enum Decision: Equatable {
        case allowed
        /// The token came in the URL: set the cookie and send the browser to `location`.
        case redirect(location: String)
        case denied
    }

    func check(_ head: HTTPRequestHead) -> Decision {
        guard let value else { return .allowed }
        if let given = head.query["token"] {
            guard Self.same(given, value) else { return .denied }
            let rest = head.query.filter { $0.key != "token" }.sorted { $0.key < $1.key }
                .map { HTML.query($0.key) + "=" + HTML.query($0.value) }.joined(separator: "&")
            return .redirect(location: head.path + (rest.isEmpty ? "" : "?" + rest))
        }
        let cookies = (head.header("cookie") ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        let prefix = Self.cookieName + "="
        let sent = cookies.first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
        return sent.map { Self.same($0, value) } == true ? .allowed : .denied
    }

    /// The cookie set after a `?token=` visit: not readable by scripts, not sent by other sites.
    var cookie: String {
        "\(Self.cookieName)=\(value ?? ""); Path=/; HttpOnly; SameSite=Strict"
    }

    /// Equal texts, in time that depends on the length only.
    static func same(_ given: String, _ expected: String) -> Bool {
        let (a, b) = (Array(given.utf8), Array(expected.utf8))
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in b.indices { difference |= b[index] ^ (index < a.count ? a[index] : 0) }
        return difference == 0
    }

    /// 32 random bytes as hex, from the system's generator.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
