#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a GET failed, in terms a caller can act on.
///
/// Every `String` payload is built from a URL or a libcurl message that went
/// through `URLRedaction.redact`, and `description` redacts once more, so the
/// API key never reaches a terminal or a log.
public enum HTTPError: Error, Sendable, Equatable {
    /// The URL could not be parsed (or has no scheme).
    case invalidURL(String)
    /// The scheme is not http/https (or file without `allowFileScheme`).
    case schemeNotAllowed(String)
    /// DNS failure, refused or reset connection, nothing received.
    case connection(String)
    /// The connect or total timeout elapsed.
    case timedOut
    /// The connection closed before the announced body arrived.
    case truncatedBody
    /// TLS handshake or certificate verification failed.
    case tls(String)
    /// The final response had this 4xx/5xx status.
    case status(Int)
    /// The (decompressed) body passed `limit` bytes and was abandoned.
    case tooLarge(limit: Int)
    /// A redirect pointed to a scheme other than http/https.
    case redirectRefused(String)
    /// More than `maxRedirects` redirects were offered.
    case tooManyRedirects
    /// A `file://` URL could not be read.
    case fileUnreadable(String)
    /// Any other libcurl failure, with its `CURLcode`.
    case transport(code: Int, message: String)
    /// The server asked to wait `seconds` before trying again, longer than the client's
    /// `longestRetryAfter`.
    case retryLater(seconds: Double)
    /// The caller's `mayAttempt` refused the request, for this reason.
    case notAttempted(String)
    /// The caller's `isCancelled` returned true: the transfer or the back-off was abandoned.
    case cancelled

    /// Whether trying again later might succeed: transport hiccups, 5xx and 429.
    /// Other 4xx, TLS and policy refusals are final.
    public var isRetryable: Bool {
        switch self {
        case .connection, .timedOut, .truncatedBody:
            true
        case .status(let code):
            code == 429 || (500...599).contains(code)
        case .invalidURL, .schemeNotAllowed, .tls, .tooLarge, .redirectRefused,
             .tooManyRedirects, .fileUnreadable, .transport, .retryLater, .notAttempted, .cancelled:
            false
        }
    }
}

extension HTTPError: CustomStringConvertible, LocalizedError {
    public var description: String { URLRedaction.redact(unredactedDescription) }

    public var errorDescription: String? { description }

    private var unredactedDescription: String {
        switch self {
        case .invalidURL(let url): "invalid URL: \(url)"
        case .schemeNotAllowed(let url): "URL scheme not allowed (only http and https): \(url)"
        case .connection(let message): "connection failed: \(message)"
        case .timedOut: "request timed out"
        case .truncatedBody: "connection closed before the whole response body arrived"
        case .tls(let message): "TLS failure: \(message)"
        case .status(let code): "server answered HTTP \(code)"
        case .tooLarge(let limit): "response larger than the \(limit)-byte limit"
        case .redirectRefused(let url): "refused redirect to a non-HTTP URL: \(url)"
        case .tooManyRedirects: "too many redirects"
        case .fileUnreadable(let message): "cannot read file: \(message)"
        case .transport(let code, let message): "libcurl error \(code): \(message)"
        case .retryLater(let seconds): "the server asks to wait \(Int(seconds.rounded(.up))) s before retrying"
        case .notAttempted(let reason): "request not made: \(reason)"
        case .cancelled: "request cancelled"
        }
    }
}
