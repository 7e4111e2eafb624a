import Foundation
import PhotoSyncTestSupport
import Testing

@Suite("fetch, then list / photographers / status", .onTestThreads)
struct FetchAndReadTests {
    /// Six photos over three pages of two; Ana Lima appears on pages 1 and 2.
    static let items: [FeedItem] = [
        FeedItem("103", by: "Ana Lima", title: "Beach", description: "Sand"),
        FeedItem("201", by: "Bruno Costa", title: "Mountain"),
        FeedItem("102", by: "Ana Lima", title: "Beach", uploaded: "1700003600"),
        FeedItem("105", by: "Ana Lima", title: "Alpha"),
        FeedItem("202", by: "Bruno Costa", title: "Zebra"),
        FeedItem("301", by: "Carla Dias", title: "City"),
    ]

    @Test(arguments: CatalogKind.allCases) func fetchThreePagesThenReadBack(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Feed.pages(Self.items, perPage: 2))

            let fetch = try await photosync("fetch", "--url", server.feedURL, "--per-page", "2", "--format", "json",
                                             environment: ["PHOTOSYNC_API_KEY": "k-123"])
            #expect(fetch.status == 0, "\(fetch)")
            let summary = try jsonObject(fetch)
            #expect(Set(summary.keys) == ["pages", "received", "inserted", "updated", "unchanged", "repeated", "skipped",
                                          "photographers_inserted", "photographers_removed", "photographers_renamed", "more_pages", "excluded",
                                          "pages_skipped_known", "gap", "dates_unknown", "backfill_pages", "windows_over_cap"])
            #expect(summary["repeated"] as? Int == 0)
            #expect(summary["pages"] as? Int == 3)
            #expect(summary["received"] as? Int == 6)
            #expect(summary["inserted"] as? Int == 6)
            #expect(summary["updated"] as? Int == 0)
            #expect(summary["unchanged"] as? Int == 0)
            #expect(summary["skipped"] as? Int == 0)
            #expect(summary["photographers_inserted"] as? Int == 3)
            #expect(summary["photographers_removed"] as? Int == 0)

            // The request the server saw: the getRecent call with key, per_page and each page once.
            #expect(server.requestedPages == [1, 2, 3])
            for request in server.requests(to: Feed.path) {
                #expect(request.method == "GET")
                #expect(request.query["method"] == "flickr.photos.getRecent")
                #expect(request.query["api_key"] == "k-123")
                #expect(request.query["per_page"] == "2")
                #expect(request.query["nojsoncallback"] == "1")
            }

            let list = try await photosync("list", "--photographer", "Ana Lima", "--format", "json")
            #expect(list.status == 0, "\(list)")
            let photos = try jsonArray(list)
            #expect(photos.map { $0["id"] as? String } == ["105", "102", "103"], "sorted by title then id")
            for photo in photos {
                #expect(Set(photo.keys) == ["id", "title", "subtitle", "photographer", "image_url", "uploaded", "source", "file", "owner_id",
                                            "license", "taken", "latitude", "longitude", "last_update", "views", "media", "tags", "gone", "gone_reason", "checked"])
                #expect(photo["file"] is NSNull, "no file downloaded yet")
                #expect(photo["photographer"] as? String == "Ana Lima")
            }
            let beach = try #require(photos.first { $0["id"] as? String == "103" })
            #expect(beach["title"] as? String == "Beach")
            #expect(beach["subtitle"] as? String == "Sand")
            #expect(beach["image_url"] as? String == "https://live.example.test/103_l.jpg")
            #expect(beach["uploaded"] as? String == "2023-11-14T22:13:20Z")
            let later = try #require(photos.first { $0["id"] as? String == "102" })
            #expect(later["uploaded"] as? String == "2023-11-14T23:13:20Z")

            let all = try await photosync("list", "--format", "json")
            #expect(try jsonArray(all).count == 6)

            let photographers = try await photosync("photographers", "--format", "json")
            #expect(photographers.status == 0, "\(photographers)")
            let rows = try jsonArray(photographers)
            #expect(rows.map { $0["name"] as? String } == ["Ana Lima", "Bruno Costa", "Carla Dias"])
            #expect(rows.map { $0["photos"] as? Int } == [3, 2, 1])

            let status = try await photosync("status", "--format", "json")
            #expect(status.status == 0, "\(status)")
            let report = try jsonObject(status)
            #expect(report["photos"] as? Int == 6)
            #expect(report["photographers"] as? Int == 3)
            let runs = try #require(report["runs"] as? [[String: Any]])
            #expect(runs.count == 1)
            #expect(runs.first?["outcome"] as? String == "succeeded")
            #expect(runs.first?["inserted"] as? Int == 6)
        }
    }

    @Test(arguments: CatalogKind.allCases) func titleRulesApplyThroughTheBinary(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let items = [
                FeedItem("1", by: "Ana Lima", title: "Harbour", description: "Morning fog"),
                FeedItem("2", by: "Ana Lima", title: "", description: "Sunset at sea"),
                FeedItem("3", by: "Ana Lima", title: "", description: ""),
            ]
            server.serveFeed(Feed.pages(items, perPage: 3))
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "3")
            #expect(fetch.status == 0, "\(fetch)")

            let photos = try jsonArray(try await photosync("list", "--sort", "id", "--format", "json"))
            let byID = Dictionary(uniqueKeysWithValues: photos.map { ($0["id"] as? String ?? "?", $0) })
            #expect(byID["1"]?["title"] as? String == "Harbour")
            #expect(byID["1"]?["subtitle"] as? String == "Morning fog")
            #expect(byID["2"]?["title"] as? String == "Sunset at sea")
            #expect(byID["2"]?["subtitle"] as? String == "")
            #expect(byID["3"]?["title"] as? String == "Unknown")
            #expect(byID["3"]?["subtitle"] as? String == "")
        }
    }

    @Test(arguments: CatalogKind.allCases) func globalOptionsBeforeAndAfterTheSubcommand(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Feed.pages(Array(Self.items.prefix(3)), perPage: 3))
            let fetch = try await photosync.run(["--db", photosync.db, "fetch", "--url", server.feedURL, "--api-key", "k", "--quiet"])
            #expect(fetch.status == 0, "\(fetch)")
            #expect(fetch.stdout.isEmpty, "--quiet text summary is not printed")

            let before = try await photosync.run(["--db", photosync.db, "list", "--format", "json"])
            let after = try await photosync.run(["list", "--db", photosync.db, "--format", "json"])
            #expect(before.status == 0, "\(before)")
            #expect(after.status == 0, "\(after)")
            #expect(try jsonArray(before).count == 3)
            #expect(before.stdout == after.stdout)
            // Neither run created the XDG default catalog.
            #expect(!FileManager.default.fileExists(atPath: photosync.directory + "/data/photosync/catalog.sqlite"))
        }
    }

    /// libcurl is loaded only when a command makes a request: queries skip its ~5 ms of start-up.
    /// glibc's LD_DEBUG=files reports every shared object the process loads, dlopen included.
    @Test(arguments: CatalogKind.allCases) func onlyFetchLoadsLibcurl(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Feed.pages(Array(Self.items.prefix(2)), perPage: 2))
            let trace = ["LD_DEBUG": "files"]
            let fetch = try await photosync.run(["--db", photosync.db, "fetch", "--url", server.feedURL, "--api-key", "k"],
                                                environment: trace)
            #expect(fetch.status == 0, "\(fetch)")
            #expect(fetch.stderr.contains("file=libcurl.so.4"), "fetch loads libcurl")
            for query in [["list"], ["photographers"], ["status"], ["--version"]] {
                let result = try await photosync.run(["--db", photosync.db] + query, environment: trace)
                #expect(result.status == 0, "\(result)")
                #expect(result.stderr.contains("file=libsqlite3"), "the trace works for \(query)")
                #expect(!result.stderr.contains("libcurl"), "\(query) does not load libcurl")
            }
        }
    }

    /// A libcurl that cannot be used (here: a stand-in libcurl.so.4 without its functions, found
    /// first through LD_LIBRARY_PATH) fails fetch with one line and exit 69; the catalog is unchanged
    /// and queries, which never load libcurl, still work.
    @Test(arguments: CatalogKind.allCases) func anUnusableLibcurlFailsFetchOnly(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Feed.pages(Array(Self.items.prefix(2)), perPage: 2))
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k")
            #expect(fetch.status == 0, "\(fetch)")

            let fake = photosync.directory + "/fakecurl"
            try FileManager.default.createDirectory(atPath: fake, withIntermediateDirectories: true)
            try "int photosync_not_curl(void) { return 0; }\n".write(toFile: fake + "/stub.c", atomically: true, encoding: .utf8)
            let compiler = Process()
            compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            compiler.arguments = ["clang", "-shared", "-fPIC", "-o", fake + "/libcurl.so.4", fake + "/stub.c"]
            try compiler.runOneAtATime()
            compiler.waitUntilExit()
            try #require(compiler.terminationStatus == 0, "clang (part of the Swift toolchain) builds the stand-in")

            let broken = ["LD_LIBRARY_PATH": fake]
            let before = try await photosync.run(["--db", photosync.db, "list", "--format", "json"])
            let failed = try await photosync.run(["--db", photosync.db, "fetch", "--url", server.feedURL, "--api-key", "k"], environment: broken)
            #expect(failed.status == 69, "\(failed)")
            #expect(failed.stderrLines.count == 1, "\(failed)")
            #expect(failed.stderr.contains("libcurl"), "\(failed)")
            let after = try await photosync.run(["--db", photosync.db, "list", "--format", "json"], environment: broken)
            #expect(after.status == 0, "\(after)")
            #expect(after.stdout == before.stdout)
            #expect(try jsonArray(after).count == 2)
        }
    }
}
