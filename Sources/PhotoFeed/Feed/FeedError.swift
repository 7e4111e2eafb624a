/// Why a response body gave no page at all. Problems with single photos are not errors:
/// they end up in `FeedPage.skipped`.
public enum FeedError: Error, Sendable, Equatable {
    /// Flickr answered `{"stat":"fail","code":…,"message":…}` (with HTTP 200).
    case api(code: Int, message: String)
    /// The body is not a usable feed; the text is one line naming what is wrong and where.
    case malformed(String)

    /// Flickr documents 105 (service unavailable) and 106 (write failed) as temporary:
    /// those are worth retrying, every other failure is not.
    public var isTemporary: Bool {
        switch self {
        case .api(let code, _): code == 105 || code == 106
        case .malformed: false
        }
    }
}

extension FeedError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .api(let code, let message): "Flickr API error \(code): \(message)"
        case .malformed(let detail): "malformed feed: \(detail)"
        }
    }
}
