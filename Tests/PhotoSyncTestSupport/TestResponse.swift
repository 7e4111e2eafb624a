/// What `TestHTTPServer` answers to one request.
public struct TestResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int = 200, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func text(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> TestResponse {
        TestResponse(status: status, headers: headers, body: Array(text.utf8))
    }

    /// An empty body with `status`, e.g. `.status(429, headers: ["Retry-After": "2"])`.
    public static func status(_ status: Int, headers: [String: String] = [:]) -> TestResponse {
        TestResponse(status: status, headers: headers)
    }

    public static func redirect(to location: String, status: Int = 302) -> TestResponse {
        TestResponse(status: status, headers: ["Location": location])
    }

    /// `body` gzip-compressed on the wire with `Content-Encoding: gzip`.
    public static func gzipped(_ body: [UInt8], status: Int = 200) -> TestResponse {
        TestResponse(status: status, headers: ["Content-Encoding": "gzip"], body: Gzip.compress(body))
    }
}
