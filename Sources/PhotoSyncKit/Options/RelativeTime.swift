import Foundation

/// The times people type for `--since` and `--until`: durations back from now (`30m`, `24h`,
/// `7d`, `2w`, as rclone's `--max-age`), and `today` and `yesterday` in the local zone.
enum RelativeTime {
    /// The instants `text` covers, or nil when it is not a relative time.
    static func bounds(_ text: String, now: Date = Date()) -> (first: Date, last: Date)? {
        if let match = text.wholeMatch(of: /(\d{1,7})([mhdw])/), let count = Double(match.1) {
            let unit: Double = switch match.2 {
            case "m": 60
            case "h": 3600
            case "d": 86_400
            default: 604_800
            }
            let instant = now.addingTimeInterval(-count * unit)
            return (instant, instant)
        }
        let daysBack = switch text.lowercased() {
        case "today": 0
        case "yesterday": 1
        default: -1
        }
        guard daysBack >= 0, let start = localMidnight(daysBefore: daysBack, now: now) else { return nil }
        let next = localMidnight(daysBefore: daysBack - 1, now: now) ?? start.addingTimeInterval(86_400)
        return (start, next.addingTimeInterval(-0.001))
    }

    /// The local midnight that starts the day `days` before today (-1: tomorrow), with mktime so
    /// a day across a daylight-saving change is 23 or 25 hours as the zone says.
    static func localMidnight(daysBefore days: Int, now: Date) -> Date? {
        var seconds = time_t(now.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return nil }
        (parts.tm_hour, parts.tm_min, parts.tm_sec, parts.tm_isdst) = (0, 0, 0, -1)
        parts.tm_mday -= Int32(days)
        let midnight = mktime(&parts)
        return midnight == -1 ? nil : Date(timeIntervalSince1970: TimeInterval(midnight))
    }
}
