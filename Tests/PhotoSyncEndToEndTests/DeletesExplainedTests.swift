import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 22, defect 9: after a delete, every command says what it excluded: `restore` says the
/// photos return with the next fetch, `list` and `show` name the exclusion, and `excluded` lists
/// them with when and by which command.
@Suite("deletes explained afterwards", .onTestThreads)
struct DeletesExplainedTests {
    static let items = [
        FeedItem("1", by: "Ana Lima", title: "Dunes"), FeedItem("2", by: "Ana Lima", title: "Cliffs"),
        FeedItem("3", by: "Bo Chen", title: "Pier"), FeedItem("4", by: "Bo Chen", title: "Harbour"),
    ]

    @Test(arguments: CatalogKind.allCases) func everyCommandSaysWhatADeleteExcluded(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Feed.pages(Self.items, perPage: 4))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456").status == 0)
            let empty = try await photosync("excluded")
            #expect(empty.status == 0 && empty.stdout == "Nothing is excluded.\n", "\(empty)")
            #expect(try await photosync("delete", "--photographer", "Ana Lima").status == 0)
            #expect(try await photosync("delete", "3").status == 0)

            let list = try await photosync("list", "--photographer", "Ana Lima")
            #expect(list.status == 1 && list.stderr.contains("no photographer named 'Ana Lima': excluded by a delete on "), "\(list)")
            #expect(list.stderr.contains("restore --photographer 'Ana Lima'"), "\(list)")
            let show = try await photosync("show", "3")
            #expect(show.status == 1 && show.stderr.contains("photo 3 was excluded by a delete on "), "\(show)")

            let json = try jsonArray(try await photosync("excluded", "--format", "json"))
            let rows = json.map { [$0["kind"] as? String, $0["value"] as? String, $0["command"] as? String] }
            #expect(rows == [
                ["photographer", "Ana Lima", "delete --photographer 'Ana Lima'"],
                ["photo", "1", "delete --photographer 'Ana Lima'"], ["photo", "2", "delete --photographer 'Ana Lima'"],
                ["photo", "3", "delete 3"],
            ], "\(json)")
            #expect(json.allSatisfy { ($0["excluded"] as? String)?.hasSuffix("Z") == true }, "\(json)")
            let table = try await photosync("excluded", environment: ["COLUMNS": "100"])
            #expect(table.stdout.hasPrefix("KIND") && table.stdout.contains("delete 3"), "\(table)")

            let restore = try await photosync("restore", "3")
            #expect(restore.status == 0 && restore.stdout == "restored photo 3\nit returns with the next fetch (if the feed still has it)\n", "\(restore)")
        }
    }
}
