/// A request `TestHTTPServer` received, kept so tests can assert on it.
public struct RecordedRequest: Sendable, Equatable {
    public var method: String
    /// Percent-decoded path without the query.
    public var path: String
    /// Query parameters, percent-decoded; the last value wins for repeated names.
    public var query: [String: String]
    /// Header names lower-cased.
    public var headers: [String: String]

    public init(method: String, path: String, query: [String: String], headers: [String: String]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }
}
