import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 26, part 3: `photosync recheck` asks `flickr.photos.getInfo` about stored photos, against
/// the real binary and a simulated API on 127.0.0.1: edits applied, photos deleted or made private
/// upstream marked gone (never deleted), a gone photo that answers again returned.
@Suite("photosync recheck", .onTestThreads)
struct RecheckTests {
    static let items: [FeedItem] = {
        var items = [FeedItem("1", by: "Ana Lima", title: "Dunes"), FeedItem("2", by: "Ana Lima", title: "Cliffs"),
                     FeedItem("3", by: "Bo Chen", title: "Pier"), FeedItem("4", by: "Bo Chen", title: "Fog")]
        (items[0].extras["license"], items[0].extras["tags"]) = ("4", "sand sea")
        return items
    }()

    @Test(arguments: CatalogKind.allCases) func editsGoneAndReturnedPhotos(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let api = SimulatedInfo(server: server, pages: Feed.pages(Self.items, perPage: 4))
            let key = ["--url", server.feedURL, "--api-key", "k123456"]
            #expect(try await photosync.run(["fetch", "--db", photosync.db] + key).status == 0)
            let before = try #require(try jsonObject(try await photosync("changes", "--format", "json"))["token"] as? String)
            api.answer("1", SimulatedInfo.photo("1", by: "Ana Lima", title: "Dunes at dawn", license: "2", tags: ["sand"]))
            api.answer("2", SimulatedInfo.photo("2", by: "Ana Lima", title: "Cliffs"))
            api.answer("3", SimulatedInfo.failure(1, "Photo \"3\" not found (invalid ID)"))
            api.answer("4", SimulatedInfo.failure(2, "Permission denied"))

            let first = try await photosync.run(["recheck", "--format", "json", "--db", photosync.db] + key)
            #expect(first.status == 0, "\(first)")
            #expect(try jsonObject(first) as NSDictionary == ["rechecked": 4, "updated": 1, "unchanged": 1, "gone": 2, "returned": 0, "left": 0])
            #expect(api.asked == ["1", "2", "3", "4"], "never-checked photos, one call each")

            let changes = try #require(try jsonObject(try await photosync("changes", "--since", before, "--format", "json"))["changes"] as? [[String: Any]])
            #expect(changes.map { "\($0["id"]!) \($0["kind"]!) \($0["author"]!)" } == ["1 updated recheck", "3 gone recheck", "4 gone recheck"], "\(changes)")
            let edit = try #require(changes.first?["fields"] as? [String: Any])
            #expect(edit["license"] as? [String: String] == ["before": "4", "after": "2"] && edit["tags"] as? [String: String] == ["before": "sand sea", "after": "sand"],
                    "\(edit)")

            let gone = try jsonArray(try await photosync("list", "--gone", "--format", "json"))
            #expect(gone.map { "\($0["id"]!) \($0["gone_reason"]!)" } == ["4 private", "3 deleted"] && gone.allSatisfy { $0["gone"] is String }, "\(gone)")
            #expect(try await photosync("list").stdout.contains("(gone) Pier"))
            let shown = try jsonObject(try await photosync("show", "2", "--format", "json"))
            #expect(shown["checked"] is String && shown["gone"] is NSNull && shown["gone_reason"] is NSNull, "\(shown)")

            api.answer("4", SimulatedInfo.photo("4", by: "Bo Chen", title: "Fog"))
            let again = try await photosync.run(["recheck", "--photographer", "Bo Chen", "--format", "json", "--db", photosync.db] + key)
            let summary = try jsonObject(again)
            #expect(summary["returned"] as? Int == 1 && summary["gone"] as? Int == 0, "\(again)")
            let listing = try await photosync("changes", "--since", before, "--format", "json")
            #expect((try jsonObject(listing)["changes"] as? [[String: Any]])?.last?["kind"] as? String == "returned", "\(listing)")

            let bo = ["changes", "--since", before, "--photographer", "Bo Chen", "--format", "json"]
            let theirs = try #require(try jsonObject(try await photosync.run(bo + ["--db", photosync.db]))["changes"] as? [[String: Any]])
            #expect(theirs.map { "\($0["id"]!) \($0["kind"]!)" } == ["3 gone", "4 gone", "4 returned"], "gone and returned name no photographer: \(theirs)")

            let deleted = try await photosync("delete", "--gone")
            #expect(deleted.status == 0 && deleted.stdout.contains("photo 3") && !deleted.stdout.contains("photo 4"), "\(deleted)")
            let afterDelete = try #require(try jsonObject(try await photosync.run(bo + ["--db", photosync.db]))["changes"] as? [[String: Any]])
            #expect(afterDelete.map { "\($0["id"]!) \($0["kind"]!)" } == ["3 gone", "4 gone", "4 returned", "3 deleted"], "3's by its tombstone: \(afterDelete)")
            #expect(try jsonArray(try await photosync("list", "--gone", "--format", "json")).isEmpty)
        }
    }

    /// The budget cuts a re-check short without an error and says how many were left; any API
    /// error but 1, 2, 105 and 106 stops with 69, keeping the photos re-checked before it.
    @Test(arguments: CatalogKind.allCases) func budgetAndErrors(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let (api, key, used) = try await Self.fetchedAndAnswered(photosync, server)
            let cut = try await photosync.run(["recheck", "--format", "json", "--db", photosync.db] + key, environment: ["PHOTOSYNC_API_BUDGET": "\(used + 2)"])
            let counts = try jsonObject(cut)
            #expect(cut.status == 0 && counts["rechecked"] as? Int == 2 && counts["left"] as? Int == 2, "\(cut)")
            #expect(api.asked.count == 2)

            api.answer("4", SimulatedInfo.failure(99, "Insufficient permissions"))
            let failed = try await photosync.run(["recheck", "--db", photosync.db] + key)
            #expect(failed.status == 69 && failed.stderr.contains("photo 4: API error 99"), "\(failed)")
            let shown = try jsonObject(try await photosync("show", "3", "--format", "json"))
            #expect(shown["title"] as? String == "T3" && shown["checked"] is String, "the photo before the error stays saved: \(shown)")
            #expect(try jsonObject(try await photosync("show", "4", "--format", "json"))["title"] as? String == "Fog")
        }
    }
}

extension RecheckTests {
    /// A catalog fetched from `items`, the API answering for photos 1 to 4 with titles T1 to T4:
    /// the API, the endpoint and key arguments, and the API calls used so far.
    static func fetchedAndAnswered(_ photosync: PhotoSync, _ server: TestHTTPServer) async throws -> (SimulatedInfo, [String], Int) {
        let api = SimulatedInfo(server: server, pages: Feed.pages(items, perPage: 4))
        let key = ["--url", server.feedURL, "--api-key", "k123456"]
        #expect(try await photosync.run(["fetch", "--db", photosync.db] + key).status == 0)
        for id in ["1", "2", "3", "4"] { api.answer(id, SimulatedInfo.photo(id, by: "Ana Lima", title: "T\(id)")) }
        let used = try #require(try jsonObject(try await photosync("status", "--format", "json"))["api_calls_last_hour"] as? Int)
        return (api, key, used)
    }

    /// `fetch --recheck N` spends what the fetch left of the budget: the re-checks are API calls
    /// counted like the pages, and a budget that cuts them short is not an error.
    @Test(arguments: CatalogKind.allCases) func aFetchRechecksWithWhatIsLeft(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let (api, key, used) = try await Self.fetchedAndAnswered(photosync, server)
            let fetch = try await photosync.run(["fetch", "--recheck", "3", "--format", "json", "--db", photosync.db] + key,
                                                environment: ["PHOTOSYNC_API_BUDGET": "\(used + 3)"])
            #expect(fetch.status == 0, "\(fetch)")
            let recheck = try #require(try jsonObject(fetch)["recheck"] as? [String: Int], "\(fetch)")
            #expect(recheck["rechecked"] == 2 && recheck["left"] == 1 && recheck["updated"] == 2, "one call for the page, two re-checks: \(recheck)")
            #expect(try jsonObject(try await photosync("status", "--format", "json"))["api_calls_last_hour"] as? Int == used + 3)
            #expect(try jsonObject(try await photosync("fetch", "--format", "json", "--db", photosync.db, "--url", server.feedURL, "--api-key", "k"))["recheck"] == nil)
        }
    }
}

/// The faults a re-check meets: the API's temporary codes, and a signal with a call in flight.
extension RecheckTests {
    /// Codes 105 and 106 are retried as a fetch retries a page: the photo is asked again and applied.
    @Test(arguments: [105, 106]) func temporaryCodesAreRetried(_ code: Int) async throws {
        try await withSandbox { photosync, server in
            let (api, key, _) = try await Self.fetchedAndAnswered(photosync, server)
            api.answer("2", SimulatedInfo.failure(code, "Service currently unavailable"), SimulatedInfo.photo("2", by: "Ana Lima", title: "T2"))
            let run = try await photosync.run(["recheck", "--format", "json", "--db", photosync.db] + key)
            #expect(run.status == 0, "\(run)")
            #expect(try jsonObject(run) as NSDictionary == ["rechecked": 4, "updated": 4, "unchanged": 0, "gone": 0, "returned": 0, "left": 0], "\(run)")
            #expect(api.asked == ["1", "2", "2", "3", "4"])
            #expect(try jsonObject(try await photosync("show", "2", "--format", "json"))["title"] as? String == "T2")
        }
    }

    /// SIGTERM while photo 3's getInfo is in flight: the call is abandoned, the run exits 143, and
    /// photos 1 and 2, re-checked before, stay saved; 3 and 4 are untouched.
    @Test func aSignalKeepsThePhotosRecheckedSoFar() async throws {
        try await withSandbox { photosync, server in
            let (api, key, _) = try await Self.fetchedAndAnswered(photosync, server)
            api.hold("3")
            defer { api.release("3") }
            let running = try photosync.start(["recheck", "--db", photosync.db] + key)
            let inFlight = await eventually(within: 60) { api.asked.contains("3") }
            #expect(inFlight, "\(running.stderrSoFar)")
            running.signal(SIGTERM)
            let result = await running.finish()
            #expect(result.status == 143 && result.stderrLines.count == 1 && result.stderr.contains("interrupted"), "\(result)")
            for (id, title) in [("1", "T1"), ("2", "T2"), ("3", "Pier"), ("4", "Fog")] {
                let shown = try jsonObject(try await photosync("show", id, "--format", "json"))
                #expect(shown["title"] as? String == title && (shown["checked"] is String) == (Int(id)! <= 2), "\(shown)")
            }
            #expect(api.asked == ["1", "2", "3"])
        }
    }
}
