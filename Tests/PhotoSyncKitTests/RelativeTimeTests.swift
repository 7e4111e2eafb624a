import Foundation
import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

@Suite("relative times", .onTestThreads)
struct RelativeTimeTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("durations count back from now", arguments: [("30m", 1800.0), ("24h", 86_400), ("7d", 604_800), ("2w", 1_209_600)])
    func durations(_ text: String, _ seconds: Double) throws {
        let bounds = try #require(RelativeTime.bounds(text, now: Self.now))
        #expect(bounds.first == Self.now.addingTimeInterval(-seconds) && bounds.last == bounds.first)
    }

    @Test("today and yesterday are whole local days, back to back, now inside today")
    func days() throws {
        let today = try #require(RelativeTime.bounds("today", now: Self.now))
        let yesterday = try #require(RelativeTime.bounds("Yesterday", now: Self.now))
        #expect(today.first <= Self.now && Self.now <= today.last)
        #expect(abs(yesterday.last.timeIntervalSince(today.first) + 0.001) < 1e-6)
        for day in [today, yesterday] {
            // 23 to 25 hours: a daylight-saving change makes a local day shorter or longer.
            #expect((82_800...90_000).contains(day.last.timeIntervalSince(day.first) + 0.001))
        }
        #expect(TableTime.local.text(today.first).hasSuffix(" 00:00:00"), "local midnight")
    }

    @Test("anything else is not a relative time", arguments: ["", "24", "h", "1y", "-2d", "tomorrow", "24 h"])
    func rejects(_ text: String) {
        #expect(RelativeTime.bounds(text, now: Self.now) == nil)
    }
}
