/// A final (non-redirect) HTTP response, body already decompressed.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header names are lower-cased; repeated headers are joined with ", ".
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
