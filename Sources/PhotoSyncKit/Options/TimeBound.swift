import ArgumentParser
import Foundation

/// `--since` / `--until`: an ISO 8601 time (`2024-05-01T12:00:00Z`, an offset such as `+02:00`,
/// fractions allowed), a date `YYYY-MM-DD` meaning that whole UTC day, or a relative time
/// (`24h`, `7d`, `today`, `yesterday`: see `RelativeTime`).
struct TimeBound: ExpressibleByArgument, Sendable {
    /// The first and last instant the bound covers (the same for a time; a day's start and end).
    var first: Date
    var last: Date

    init?(argument: String) {
        if let day = Self.day(argument) {
            (first, last) = (day, day.addingTimeInterval(86_400 - 0.001))
        } else if let time = Self.time(argument) {
            (first, last) = (time, time)
        } else if let relative = RelativeTime.bounds(argument) {
            (first, last) = relative
        } else {
            return nil
        }
    }

    static var defaultCompletionKind: CompletionKind { .default }

    private static func day(_ text: String) -> Date? {
        guard text.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil else { return nil }
        return time(text + "T00:00:00Z")
    }

    private static func time(_ text: String) -> Date? {
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
