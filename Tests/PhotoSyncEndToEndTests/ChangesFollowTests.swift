import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 26: `photosync changes --follow` prints changes as other processes commit them (on
/// PostgreSQL as it is notified, on SQLite looking at the file), and a signal ends it with status
/// 0 and the token to go on from.
@Suite("photosync changes --follow", .onTestThreads)
struct ChangesFollowTests {
    @Test(arguments: CatalogKind.allCases) func followPrintsCommitsUntilASignal(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Feed.pages(ChangesCommandTests.items, perPage: 3))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456").status == 0)
            // PostgreSQL is told of each commit (LISTEN/NOTIFY): with an hour between looks, a
            // follower that polled would hear nothing before the test gives up.
            let poll = kind == .postgres ? ["--follow-poll-seconds", "3600"] : []
            let follow = try photosync.start(["changes", "--follow", "--format", "jsonl", "--db", photosync.db] + poll)
            let started = await eventually(within: 60) { follow.stdoutSoFar.split(separator: "\n").count >= 5 }
            #expect(started, "the last run's changes first: \(follow.stdoutSoFar) \(follow.stderrSoFar)")
            #expect(try await photosync("delete", "3").status == 0)
            let heard = await eventually(within: 60) { follow.stdoutSoFar.contains(#""kind":"deleted""#) }
            #expect(heard, "the delete, as it committed: \(follow.stdoutSoFar)")
            follow.signal(kind == .sqlite ? SIGTERM : SIGINT)
            let result = await follow.finish()
            #expect(result.status == 0, "\(result)")
            let lines = try result.stdout.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            let current = try jsonObject(try await photosync("changes", "--since", "0", "--format", "json"))["token"] as? String
            #expect(lines.last??.keys.sorted() == ["token"] && lines.last??["token"] as? String == current, "\(result.stdout)")
            #expect(lines.dropLast().allSatisfy { $0?["kind"] != nil } && lines.count == 9, "5 inserts, 3 for the delete: \(result.stdout)")
            let json = try await photosync("changes", "--follow", "--format", "json")
            #expect(json.status == 64, "\(json)")
        }
    }
}
