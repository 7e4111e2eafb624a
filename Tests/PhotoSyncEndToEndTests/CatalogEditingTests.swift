import Foundation
import PhotoSyncTestSupport
import Testing

@Suite("merge policies and delete", .onTestThreads)
struct CatalogEditingTests {
    static let first: [FeedItem] = [
        FeedItem("1", by: "Ana Lima", title: "One"),
        FeedItem("2", by: "Ana Lima", title: "Two"),
        FeedItem("3", by: "Bruno Costa", title: "Three"),
    ]
    /// The same ids; only photo 2's title changed.
    static let second: [FeedItem] = [
        FeedItem("1", by: "Ana Lima", title: "One"),
        FeedItem("2", by: "Ana Lima", title: "Two (edited)"),
        FeedItem("3", by: "Bruno Costa", title: "Three"),
    ]

    private func titles(_ photosync: PhotoSync) async throws -> [String: String] {
        let list = try await photosync("list", "--format", "json")
        #expect(list.status == 0, "\(list)")
        return Dictionary(uniqueKeysWithValues: try jsonArray(list).map { ($0["id"] as? String ?? "?", $0["title"] as? String ?? "?") })
    }

    private func fetchTwice(_ policy: String, _ photosync: PhotoSync, _ server: TestHTTPServer) async throws -> PhotoSync.Result {
        server.serveFeed(Feed.pages(Self.first, perPage: 3))
        let initial = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "3")
        #expect(initial.status == 0, "\(initial)")
        server.serveFeed(Feed.pages(Self.second, perPage: 3))
        return try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "3",
                                   "--merge-policy", policy, "--format", "json")
    }

    @Test(arguments: CatalogKind.allCases) func objectTrumpTakesTheFeedsTitle(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let again = try await fetchTwice("object-trump", photosync, server)
            #expect(again.status == 0, "\(again)")
            let summary = try jsonObject(again)
            #expect(summary["received"] as? Int == 3)
            #expect(summary["inserted"] as? Int == 0)
            #expect(summary["updated"] as? Int == 1)
            #expect(summary["unchanged"] as? Int == 2)
            #expect(summary["photographers_inserted"] as? Int == 0)
            #expect(try await titles(photosync) == ["1": "One", "2": "Two (edited)", "3": "Three"])
            let photographers = try jsonArray(try await photosync("photographers", "--format", "json"))
            #expect(photographers.map { $0["photos"] as? Int } == [2, 1], "no duplicate photographers after a re-fetch")
        }
    }

    @Test(arguments: CatalogKind.allCases) func storeTrumpKeepsTheCatalogsTitle(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let again = try await fetchTwice("store-trump", photosync, server)
            #expect(again.status == 0, "\(again)")
            #expect(try jsonObject(again)["inserted"] as? Int == 0)
            #expect(try await titles(photosync) == ["1": "One", "2": "Two", "3": "Three"])
        }
    }

    @Test(arguments: CatalogKind.allCases) func errorPolicyFailsAndSavesNothing(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let again = try await fetchTwice("error", photosync, server)
            #expect(again.status == 65, "\(again)")
            #expect(again.stderrLines.count == 1, "\(again)")
            #expect(again.stderr.lowercased().contains("conflict"), "\(again)")
            #expect(try await titles(photosync) == ["1": "One", "2": "Two", "3": "Three"])
            let status = try jsonObject(try await photosync("status", "--format", "json"))
            let runs = try #require(status["runs"] as? [[String: Any]])
            #expect(runs.map { $0["outcome"] as? String } == ["failed", "succeeded"], "newest run first")
        }
    }

    @Test(arguments: CatalogKind.allCases) func deleteRules(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let items = [
                FeedItem("1", by: "Ana Lima", title: "Solo"),
                FeedItem("2", by: "Bruno Costa", title: "B1"),
                FeedItem("3", by: "Bruno Costa", title: "B2"),
                FeedItem("4", by: "Carla Dias", title: "C1"),
                FeedItem("5", by: "Carla Dias", title: "C2"),
            ]
            server.serveFeed(Feed.pages(items, perPage: 5))
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "5")
            #expect(fetch.status == 0, "\(fetch)")

            func names() async throws -> [String] {
                try jsonArray(try await photosync("photographers", "--format", "json")).compactMap { $0["name"] as? String }
            }
            func ids() async throws -> [String] {
                try jsonArray(try await photosync("list", "--sort", "id", "--format", "json")).compactMap { $0["id"] as? String }
            }

            // Deleting a photographer's only photo removes the photographer.
            let single = try await photosync("delete", "1")
            #expect(single.status == 0, "\(single)")
            #expect(try await names() == ["Bruno Costa", "Carla Dias"])
            #expect(try await ids() == ["2", "3", "4", "5"])

            // All-or-nothing: one unknown id among known ones deletes nothing.
            let mixed = try await photosync("delete", "2", "999", "4")
            #expect(mixed.status == 1, "\(mixed)")
            #expect(mixed.stderr.contains("999"), "\(mixed)")
            #expect(try await ids() == ["2", "3", "4", "5"])
            #expect(try await names() == ["Bruno Costa", "Carla Dias"])

            // By photographer: all their photos go, and so do they.
            let byName = try await photosync("delete", "--photographer", "Carla Dias")
            #expect(byName.status == 0, "\(byName)")
            #expect(try await ids() == ["2", "3"])
            #expect(try await names() == ["Bruno Costa"])

            // Photographer still holding photos stays after one of two is deleted.
            let one = try await photosync("delete", "2")
            #expect(one.status == 0, "\(one)")
            #expect(try await names() == ["Bruno Costa"])
            let status = try jsonObject(try await photosync("status", "--format", "json"))
            #expect(status["photos"] as? Int == 1)
            #expect(status["photographers"] as? Int == 1)
        }
    }
}
