/// The moment a whole fetch must end (`--max-time`, `max_time`): a cron job that overruns its
/// slot stops between pages, or abandons the request in flight, instead of piling up behind the
/// next run. Counted from the command's start, so waiting for the lock and retries count too.
public struct FetchDeadline: Sendable, Equatable {
    /// The largest `max_time` accepted (a year), so the end is always a representable instant.
    static let longest: Double = 31_536_000

    /// The limit as the user gave it.
    public let seconds: Double
    let end: ContinuousClock.Instant

    public init(seconds: Double, from start: ContinuousClock.Instant = .now) {
        self.seconds = seconds
        end = start + .milliseconds(Int64((min(seconds, Self.longest) * 1000).rounded(.up)))
    }

    var hasPassed: Bool { ContinuousClock.now >= end }

    /// The time left (negative once passed).
    var remaining: Duration { end - ContinuousClock.now }

    /// The error that stops the fetch (exit 75: cron tries again next time).
    var exceeded: PhotoSyncError { .timeLimit(seconds: seconds) }
}
