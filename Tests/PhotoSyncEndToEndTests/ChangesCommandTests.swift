import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 26: `photosync changes` reads the catalog's persistent history, against the real binary.
@Suite("photosync changes", .onTestThreads)
struct ChangesCommandTests {
    static let items = [
        FeedItem("1", by: "Ana Lima", title: "Dunes"), FeedItem("2", by: "Ana Lima", title: "Cliffs"),
        FeedItem("3", by: "Bo Chen", title: "Pier"),
    ]

    @Test(arguments: CatalogKind.allCases) func fetchesDeletesAndRestoresAreListedInOrder(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Feed.pages(Self.items, perPage: 3))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456").status == 0)
            let first = try jsonObject(try await photosync("changes", "--format", "json"))
            let inserted = try #require(first["changes"] as? [[String: Any]])
            #expect(Set(inserted.map { "\($0["entity"]!) \($0["id"]!) \($0["kind"]!)" })
                == ["photo 1 inserted", "photo 2 inserted", "photo 3 inserted", "photographer Ana Lima inserted", "photographer Bo Chen inserted"])
            #expect(inserted.allSatisfy { $0["run"] as? Int == 1 && $0["author"] as? String == "fetch run 1" }, "\(inserted)")
            let token = try #require(first["token"] as? String)

            var edited = Self.items
            edited[0].title = "Dunes at dawn"
            server.serveFeed(Feed.pages(edited, perPage: 3))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456", "--full").status == 0)
            #expect(try await photosync("delete", "3").status == 0)
            #expect(try await photosync("restore", "3").status == 0)

            let lines = try await photosync("changes", "--since", token, "--format", "jsonl")
            #expect(lines.status == 0, "\(lines)")
            let objects = try lines.stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            let rows = objects.dropLast().map { "\($0["entity"]!) \($0["id"]!) \($0["kind"]!) \($0["author"]!)" }
            #expect(rows.first == "photo 1 updated fetch run 2" && rows.last == "photo 3 restored restore", "\(lines.stdout)")
            #expect(Set(rows.dropFirst().dropLast()) == ["photo 3 excluded delete", "photo 3 deleted delete", "photographer Bo Chen deleted delete"])
            let update = try #require(objects.first?["fields"] as? [String: Any])
            #expect((update["title"] as? [String: String]) == ["before": "Dunes", "after": "Dunes at dawn"], "\(objects)")
            let deleted = try #require(objects.first { $0["kind"] as? String == "deleted" && $0["entity"] as? String == "photo" }?["fields"] as? [String: [String: Any]])
            #expect(deleted["title"]?["before"] as? String == "Pier" && deleted["photographer"]?["before"] as? String == "Bo Chen", "\(deleted)")
            let next = try #require(objects.last?["token"] as? String)
            let none = try jsonObject(try await photosync("changes", "--since", next, "--format", "json"))
            #expect((none["changes"] as? [Any])?.isEmpty == true && none["token"] as? String == next, "\(none)")

            let runOne = try jsonObject(try await photosync("changes", "--since", "run:1", "--run", "2", "--format", "json"))
            #expect((runOne["changes"] as? [[String: Any]])?.map { $0["id"] as? String } == ["1"], "\(runOne)")
            let ana = try jsonObject(try await photosync("changes", "--since", token, "--photographer", "Bo Chen", "--format", "json"))
            #expect((ana["changes"] as? [[String: Any]])?.count == 2, "\(ana)")
            let bad = try await photosync("changes", "--since", "yesterday-ish")
            #expect(bad.status == 64 && bad.stderr.contains("--since yesterday-ish"), "\(bad)")
        }
    }

    /// `status` shows the run ids `--run` takes; a photo's tags (its many-to-many links) show
    /// before and after; a dry run lists what it would change and leaves no history.
    @Test(arguments: CatalogKind.allCases) func runIDsTagsAndDryRuns(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            var items = Self.items
            items[0].extras["tags"] = "sand sea"
            server.serveFeed(Feed.pages(items, perPage: 3))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456").status == 0)
            items[0].extras["tags"] = "sand dusk"
            items[1].title = "Cliffs at noon"
            server.serveFeed(Feed.pages(items, perPage: 3))
            let token = try #require(try jsonObject(try await photosync("changes", "--format", "json"))["token"] as? String)
            let dry = try jsonObject(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456", "--full", "--dry-run", "--format", "json"))
            let wouldChange = try #require(dry["changes"] as? [[String: Any]], "\(dry)")
            #expect(Set(wouldChange.map { "\($0["id"]!) \($0["kind"]!)" }) == ["1 updated", "2 updated", "dusk inserted"] && dry["changes_total"] as? Int == 3,
                    "\(dry)")
            let none = try jsonObject(try await photosync("changes", "--since", token, "--format", "json"))
            #expect((none["changes"] as? [Any])?.isEmpty == true && none["token"] as? String == token, "the dry run left history: \(none)")

            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456", "--full").status == 0)
            let runs = try #require(try jsonObject(try await photosync("status", "--format", "json"))["runs"] as? [[String: Any]])
            #expect(runs.map { $0["id"] as? Int } == [2, 1], "\(runs)")
            #expect(try await photosync("status").stdout.contains("RUN"))
            let second = try #require(try jsonObject(try await photosync("changes", "--run", "2", "--since", "run:1", "--format", "json"))["changes"] as? [[String: Any]])
            let photo = try #require(second.first { $0["id"] as? String == "1" }?["fields"] as? [String: Any], "\(second)")
            #expect(photo["tags"] as? [String: String] == ["before": "sand sea", "after": "dusk sand"], "\(second)")
        }
    }

    /// `history_days`: a fetch deletes the history older than that; a token from then exits 65,
    /// one line, and a later token still reads.
    @Test(arguments: CatalogKind.allCases) func aFetchPrunesHistoryOlderThanHistoryDays(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let config = photosync.directory + "/config.yaml"
            try "history_days: 0\n".write(toFile: config, atomically: true, encoding: .utf8)
            server.serveFeed(Feed.pages(Self.items, perPage: 3))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456", "--config", config).status == 0)
            let old = try #require(try jsonObject(try await photosync("changes", "--since", "0", "--format", "json"))["token"] as? String)
            var edited = Self.items
            edited[2].title = "Pier at night"
            server.serveFeed(Feed.pages(edited, perPage: 3))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456", "--config", config, "--full").status == 0)
            let expired = try await photosync("changes", "--since", "0")
            #expect(expired.status == 65 && expired.stderr.contains("pruned") && expired.stdout.isEmpty, "\(expired)")
            let after = try jsonObject(try await photosync("changes", "--since", old, "--format", "json"))
            #expect((after["changes"] as? [[String: Any]])?.map { $0["id"] as? String } == ["3"], "\(after)")
        }
    }
}
