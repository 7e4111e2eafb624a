import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 14, "what users reach for": show, list filters and windows, suggestions, photographer
/// order, JSON lines, tables that fit the terminal, config, completions.
@Suite("browsing the catalog", .onTestThreads)
struct BrowsingTests {
    static let items = [
        FeedItem("11", by: "Ana Lima", title: "Straße am Meer", uploaded: "1714521600"),  // 2024-05-01T00:00:00Z
        FeedItem("12", by: "Ana Lima", title: "Harbour", description: "STRASSE at dawn", uploaded: "1714607999"),  // 2024-05-01T23:59:59Z
        FeedItem("13", by: "Bo Chen", title: "Café", uploaded: "1714608000"),  // 2024-05-02T00:00:00Z
        FeedItem("14", by: "Bo Chen", title: "Cafe", uploaded: "1714694400"),
        FeedItem("15", by: "Bo Chen", title: "A very long title that will not fit a narrow terminal at all", uploaded: "1714780800"),
    ]

    static func fetched(_ body: (PhotoSync) async throws -> Void) async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages(items, perPage: 5))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k").status == 0)
            try await body(photosync)
        }
    }

    static func ids(_ result: PhotoSync.Result) throws -> [String] {
        try jsonArray(result).compactMap { $0["id"] as? String }
    }

    @Test func showPrintsEveryFieldAndTheURLs() async throws {
        try await Self.fetched { photosync in
            let text = try await photosync("show", "12")
            #expect(text.status == 0, "\(text)")
            let owner = Self.items[1].ownerID
            #expect(text.stdout.contains("page:         https://www.flickr.com/photos/\(owner)/12\n"), "\(text)")
            #expect(text.stdout.contains("subtitle:     STRASSE at dawn\n") && text.stdout.contains("image:        https://live.example.test/12_l.jpg"))
            let json = try jsonObject(try await photosync("show", "12", "--format", "json"))
            #expect(Set(json.keys) == ["id", "title", "subtitle", "photographer", "image_url", "uploaded", "source", "owner_id", "page_url", "file",
                                         "license", "taken", "latitude", "longitude", "last_update", "views", "media", "sizes", "tags", "gone", "gone_reason", "checked"])
            #expect(json["owner_id"] as? String == owner && json["uploaded"] as? String == "2024-05-01T23:59:59Z")
            let missing = try await photosync("show", "99")
            #expect(missing.status == 1 && missing.stderr == "photosync: not in the catalog: photo 99\n", "\(missing)")
        }
    }

    @Test func searchFoldsCaseFullyButKeepsAccents() async throws {
        try await Self.fetched { photosync in
            let found47818 = try Self.ids(try await photosync("list", "--search", "STRASSE", "--sort", "id", "--format", "json"))
            #expect(found47818 == ["11", "12"])
            let found87252 = try Self.ids(try await photosync("list", "--search", "straße", "--sort", "id", "--format", "json"))
            #expect(found87252 == ["11", "12"])
            let found78056 = try Self.ids(try await photosync("list", "--search", "CAFÉ", "--format", "json"))
            #expect(found78056 == ["13"])
            let found92962 = try Self.ids(try await photosync("list", "--search", "cafe", "--format", "json"))
            #expect(found92962 == ["14"])
        }
    }

    @Test func sinceAndUntilAreInclusiveAndADateIsTheWholeUTCDay() async throws {
        try await Self.fetched { photosync in
            let found13 = try Self.ids(try await photosync("list", "--since", "2024-05-01", "--until", "2024-05-01", "--sort", "id", "--format", "json"))
            #expect(found13
                == ["11", "12"])
            let found52217 = try Self.ids(try await photosync("list", "--since", "2024-05-01T23:59:59Z", "--until", "2024-05-02T02:00:00+02:00",
                                                     "--sort", "id", "--format", "json"))
            #expect(found52217 == ["12", "13"])
            let bad = try await photosync("list", "--since", "the day before")
            #expect(bad.status == 64 && bad.stderr.contains("--since"), "\(bad)")
        }
    }

    @Test func offsetAndLimitPageThroughTheList() async throws {
        try await Self.fetched { photosync in
            let found92191 = try Self.ids(try await photosync("list", "--sort", "id", "--offset", "1", "--limit", "2", "--format", "json"))
            #expect(found92191 == ["12", "13"])
            let found34267 = try Self.ids(try await photosync("list", "--search", "a", "--sort", "id", "--offset", "1", "--limit", "1", "--format", "json"))
            #expect(found34267
                == ["12"])
        }
    }

    @Test func anUnknownPhotographerSuggestsTheClosest() async throws {
        try await Self.fetched { photosync in
            let result = try await photosync("list", "--photographer", "ana lina")
            #expect(result.status == 1)
            #expect(result.stderr == "photosync: no photographer named 'ana lina'; did you mean 'Ana Lima'?\n", "\(result)")
            #expect(try await photosync("list", "--photographer", "Ana Lima").stderr.isEmpty)
        }
    }

    @Test func photographersSortByPhotosAndLimit() async throws {
        try await Self.fetched { photosync in
            let lines = try await photosync("photographers", "--sort", "photos", "--limit", "1", "--format", "jsonl").stdout
            #expect(lines == #"{"name":"Bo Chen","photos":3}"# + "\n")
            let byName = try await photosync("photographers", "--format", "jsonl").stdout.split(separator: "\n")
            #expect(byName == [#"{"name":"Ana Lima","photos":2}"#, #"{"name":"Bo Chen","photos":3}"#])
            // A limit by name counts only its own photographers' photos: the same figures.
            for limit in 1...3 {
                let first = try await photosync("photographers", "--limit", "\(limit)", "--format", "jsonl").stdout.split(separator: "\n")
                #expect(first == Array(byName.prefix(limit)), "--limit \(limit)")
            }
        }
    }

    @Test func jsonLinesHoldOneObjectPerLine() async throws {
        try await Self.fetched { photosync in
            let lines = try await photosync("list", "--sort", "id", "--format", "jsonl").stdout.split(separator: "\n")
            #expect(lines.count == 5)
            let first = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
            #expect(first?["id"] as? String == "11")
        }
    }

    @Test func theTableFitsColumns() async throws {
        try await Self.fetched { photosync in
            let narrow = try await photosync("list", environment: ["COLUMNS": "60"])
            let lines = narrow.stdout.split(separator: "\n")
            #expect(lines.count == 6)
            #expect(lines.allSatisfy { $0.count <= 60 }, "\(narrow)")
            #expect(narrow.stdout.contains("…"))
            let wide = try await photosync("list", environment: ["COLUMNS": "200"])
            #expect(wide.stdout.contains("A very long title that will not fit a narrow te…"), "48 columns at most, as before: \(wide)")
        }
    }

    @Test func configShowsEachSettingsSourceAndNeverTheKey() async throws {
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        let config = photosync.directory + "/c.yaml"
        try "per_page: 50\napi_key: Conf1gKey0123\n".write(toFile: config, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config)
        let result = try await photosync.run(["config", "--config", config, "--db", "/tmp/x.sqlite", "--format", "json"],
                                             environment: ["PHOTOSYNC_RETRIES": "5"])
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains("Conf1gKey0123"))
        let object = try jsonObject(result)
        func entry(_ key: String) -> [String: String?] { (object[key] as? [String: Any]).map { $0.mapValues { $0 as? String } } ?? [:] }
        #expect(entry("per_page") == ["value": "50", "source": "file \(config)"])
        #expect(entry("retries") == ["value": "5", "source": "env PHOTOSYNC_RETRIES"])
        #expect(entry("db") == ["value": "/tmp/x.sqlite", "source": "flag --db"])
        #expect(entry("max_pages") == ["value": "10", "source": "default"])
        #expect(entry("api_key") == ["value": "[redacted]", "source": "file \(config)"])
    }

    @Test func configCheckMakesOneCallAndReportsTheKey() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages(Self.items, perPage: 5))
            let ok = try await photosync.run(["config", "--check"], environment: ["PHOTOSYNC_URL": server.feedURL, "PHOTOSYNC_API_KEY": "k"])
            #expect(ok.status == 0 && ok.stdout.contains("check: ok"), "\(ok)")
            #expect(server.requestedPages == [1])
            #expect(!FileManager.default.fileExists(atPath: photosync.db), "config --check creates no catalog")
            let noKey = try await photosync.run(["config", "--check"], environment: ["PHOTOSYNC_URL": server.feedURL])
            #expect(noKey.status == 78, "\(noKey)")
        }
    }

    @Test func photographerNamesComplete() async throws {
        try await Self.fetched { photosync in
            let words = ["photosync", "list", "--db", photosync.db, "--photographer", "A"]
            let result = try await photosync.run(["---completion", "list", "--", "--photographer", "5", "1"] + words)
            #expect(result.stdout.split(separator: "\n") == ["Ana Lima"], "\(result)")
            let bash = try await photosync.run(["--generate-completion-script", "bash"])
            #expect(bash.status == 0 && bash.stdout.contains("--log-file"), "\(bash.stdout.prefix(300))")
        }
    }
}
