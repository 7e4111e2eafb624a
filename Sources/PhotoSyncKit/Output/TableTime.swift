import Foundation

/// How tables and text reports show a time: in the local zone for a person at a terminal
/// (`2024-05-29 18:20:05`), or with `--utc` as ISO 8601 UTC (`2024-05-29T16:20:05Z`). JSON, JSON
/// lines and CSV always carry UTC: they are read by programs.
enum TableTime: Sendable {
    case local, utc

    init(utc: Bool) { self = utc ? .utc : .local }

    func text(_ date: Date) -> String {
        switch self {
        case .utc: return timestamp(date)
        case .local:
            // The UTC stamp of the same wall-clock time: `timestamp`'s fast path does the calendar.
            let shifted = timestamp(date.addingTimeInterval(TimeInterval(Self.offset(at: date))))
            return String(shifted.dropLast()).replacingOccurrences(of: "T", with: " ")
        }
    }

    /// Seconds east of UTC in the local zone (`TZ`, else /etc/localtime) at `date`.
    static func offset(at date: Date) -> Int {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return 0 }
        return parts.tm_gmtoff
    }
}
