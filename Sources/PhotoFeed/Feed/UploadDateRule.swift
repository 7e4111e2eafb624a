#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `dateupload` is unix seconds, as a string or a number. Only 1970-01-01 up to (not including)
/// 2100-01-01 UTC is believed: a value outside that, or not a whole number, means "unknown"
/// (nil), and the reason is reported, so `list` never shows a date like `506713-02-07`.
enum UploadDateRule {
    static let earliest = 0
    static let latest = 4_102_444_800  // 2100-01-01T00:00:00Z, excluded

    /// The date, or nil with the reason (nil reason: the field was absent or blank, nothing to report).
    static func date(_ raw: LenientScalar?) -> (date: Date?, problem: String?) {
        guard let raw, !raw.isBlank else { return (nil, nil) }
        guard let seconds = raw.integer else {
            return (nil, "dateupload \(raw.shown) is not whole seconds; upload time unknown")
        }
        guard seconds >= earliest && seconds < latest else {
            return (nil, "dateupload \(seconds) is outside 1970–2099; upload time unknown")
        }
        return (Date(timeIntervalSince1970: TimeInterval(seconds)), nil)
    }
}
