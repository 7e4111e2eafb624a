internal import CCurl

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a `Retry-After` header (RFC 9110 §10.2.3) as seconds to wait.
enum RetryAfter {
    /// Delta-seconds or an HTTP date; nil when unparseable. Dates in the past mean 0.
    static func seconds(from value: String, now: Double = Date().timeIntervalSince1970) -> Double? {
        let trimmed = String(value.trimmingWhitespace())
        if let seconds = Int(trimmed) {
            return Double(max(0, seconds))
        }
        // libcurl already ships an HTTP-date parser; FoundationEssentials has none.
        guard CurlLibrary.loadError == nil else { return nil }
        let date = ccurl_getdate(trimmed)
        guard date >= 0 else { return nil }
        return max(0, Double(date) - now)
    }
}
