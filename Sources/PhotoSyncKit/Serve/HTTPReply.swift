import Foundation

/// A response, complete in memory (pages and JSON are small; files are read in one piece up to
/// their size, which the download limit bounds).
struct HTTPReply: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body: Data = Data()

    init(status: Int, contentType: String? = nil, body: Data = Data()) {
        self.status = status
        self.body = body
        if let contentType { headers.append(("Content-Type", contentType)) }
    }

    static func html(_ status: Int, _ page: String) -> HTTPReply {
        HTTPReply(status: status, contentType: "text/html; charset=utf-8", body: Data(page.utf8))
    }

    static func json(_ text: String) -> HTTPReply {
        HTTPReply(status: 200, contentType: "application/json; charset=utf-8", body: Data(text.utf8))
    }

    static func plain(_ status: Int, _ text: String) -> HTTPReply {
        HTTPReply(status: status, contentType: "text/plain; charset=utf-8", body: Data((text + "\n").utf8))
    }

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    mutating func set(_ name: String, _ value: String) {
        headers.removeAll { $0.0.lowercased() == name.lowercased() }
        headers.append((name, value))
    }

    /// The bytes on the wire; HEAD gets the same head (Content-Length included) and no body.
    func encoded(forHead: Bool, keepAlive: Bool) -> Data {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        // A 304 has no body, and its length would be the full reply's: none is sent.
        if status != 304 { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
        var data = Data(head.utf8)
        if !forHead { data.append(body) }
        return data
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 206: "Partial Content"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 416: "Range Not Satisfiable"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        default: "Internal Server Error"
        }
    }
}
