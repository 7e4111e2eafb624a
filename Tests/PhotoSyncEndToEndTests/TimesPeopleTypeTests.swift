import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 22, defect 10: `--since` and `--until` take durations back from now and `today` /
/// `yesterday`; bounds that cannot both hold are a usage error; tables show local times
/// (`--utc` for UTC) while JSON stays UTC.
@Suite("times people type", .onTestThreads)
struct TimesPeopleTypeTests {
    static func ids(_ result: PhotoSync.Result) throws -> [String] {
        try jsonArray(result).compactMap { $0["id"] as? String }.sorted()
    }

    @Test func durationsAndDaysBackFromNow() async throws {
        try await withSandbox { photosync, server in
            let now = Int(Date().timeIntervalSince1970)
            let items = [(1, 3600), (2, 2 * 86_400 + 60), (3, 10 * 86_400)].map { id, age in
                FeedItem("\(id)", by: "Ana Lima", title: "Photo \(id)", uploaded: String(now - age))
            }
            server.serveFeed(Feed.pages(items, perPage: 3))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456").status == 0)
            let cases: [([String], [String])] = [
                (["--since", "24h"], ["1"]), (["--since", "90m"], ["1"]), (["--since", "7d"], ["1", "2"]), (["--since", "2w"], ["1", "2", "3"]),
                (["--since", "yesterday"], ["1"]), (["--until", "24h"], ["2", "3"]), (["--since", "3w", "--until", "1w"], ["3"]),
            ]
            for (args, expected) in cases {
                let result = try await photosync.run(["list", "--format", "json", "--db", photosync.db] + args)
                #expect(try result.status == 0 && Self.ids(result) == expected, "\(args): \(result)")
            }
            let backwards = try await photosync("list", "--since", "2024-05-29", "--until", "2024-05-28")
            #expect(backwards.status == 64 && backwards.stdout.isEmpty && backwards.stderrLines.count == 1, "\(backwards)")
            #expect(backwards.stderr.contains("--since is after --until"), "\(backwards)")
            let unknown = try await photosync("list", "--since", "last week")
            #expect(unknown.status == 64 && unknown.stderrLines.count == 1, "\(unknown)")
        }
    }

    @Test func tablesShowLocalTimesAndJSONStaysUTC() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages([FeedItem("1", by: "Ana Lima", title: "Dunes", uploaded: "1700000000")], perPage: 1))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456").status == 0)
            let tokyo = ["TZ": "Asia/Tokyo", "COLUMNS": "120"]
            let local = try await photosync("list", environment: tokyo)
            #expect(local.stdout.contains("2023-11-15 07:13:20"), "1700000000 is 07:13:20 the next day in Tokyo: \(local)")
            let utc = try await photosync("list", "--utc", environment: tokyo)
            #expect(utc.stdout.contains("2023-11-14T22:13:20Z"), "\(utc)")
            let json = try await photosync("list", "--format", "json", environment: tokyo)
            #expect(try jsonArray(json).first?["uploaded"] as? String == "2023-11-14T22:13:20Z", "\(json)")
            let show = try await photosync("show", "1", environment: tokyo)
            #expect(show.stdout.contains("uploaded:     2023-11-15 07:13:20"), "\(show)")
        }
    }
}
