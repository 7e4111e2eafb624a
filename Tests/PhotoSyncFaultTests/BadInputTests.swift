import Foundation
import PhotoSyncTestSupport
import Testing

/// Hostile or broken feed content through the binary: a page the decoder cannot trust exits 65 with
/// one stderr line and leaves the catalog as it was; single bad items are skipped and reported.
@Suite("bad feed input through the binary", .onTestThreads)
struct BadInputTests {
    static let baseline = FeedJSON.page(1, of: 1, perPage: 2, total: 2, photos: [FeedJSON.photo("1"), FeedJSON.photo("2", owner: "Bruno Costa")])

    /// Fetches `baseline`, then `body` as a 1-page feed; returns the second fetch and checks the catalog is unchanged when it fails.
    func fetchAfterBaseline(_ body: String, _ server: TestHTTPServer, _ sandbox: Sandbox, extra: [String] = []) async throws -> (Sandbox.Result, Set<String>) {
        server.serve([1: Self.baseline])
        let first = try await sandbox("fetch", "--url", server.feedURL, "--api-key", "k")
        #expect(first.status == 0, "\(first)")
        let before = try await sandbox("list", "--format", "json").stdout
        server.serve([1: body])
        let result = try await sandbox.run(["fetch", "--db", sandbox.db, "--url", server.feedURL, "--api-key", "k", "--format", "json"] + extra)
        if result.status != 0 {
            #expect(result.stderrLines.count == 1, "\(result)")
            #expect(try await sandbox("list", "--format", "json").stdout == before, "catalog unchanged")
        }
        try CatalogInspector(path: sandbox.db).expectConsistent(_: "after \(body.prefix(80))")
        return (result, try await sandbox.ids())
    }

    static let malformedPages: [String] = [
        #"{"stat":"ok"}"#,                                                                   // no photos
        #"{"photos":null,"stat":"ok"}"#,
        #"{"photos":[],"stat":"ok"}"#,
        #"{"photos":"1","stat":"ok"}"#,
        FeedJSON.page(1, of: 1, photos: [], counters: ["page": "<absent>"]),
        FeedJSON.page(1, of: 1, photos: [], counters: ["pages": "null"]),
        FeedJSON.page(1, of: 1, photos: [], counters: ["pages": #""many""#]),
        FeedJSON.page(1, of: 1, photos: [], counters: ["pages": "-1"]),
        FeedJSON.page(1, of: 1, photos: [], counters: ["page": "true"]),
        FeedJSON.page(1, of: 1, photos: [], counters: ["pages": "1.5"]),
        FeedJSON.page(1, of: 1, photos: [], counters: ["pages": "99999999999999999999999"]),
        #"{"photos":{"page":1,"pages":1,"perpage":2,"total":2,"photo":{"id":"5"}},"stat":"ok"}"#,   // photo not an array
        #"{"photos":{"page":1,"pages":1,"perpage":2,"total":2,"photo":[]},"stat":1}"#,           // stat a number
        #"[1,2,3]"#,
    ]

    @Test(arguments: malformedPages)
    func untrustworthyPageExits65AndChangesNothing(body: String) async throws {
        try await withServerAndSandbox { server, sandbox in
            let (result, ids) = try await fetchAfterBaseline(body, server, sandbox)
            #expect(result.status == 65, "\(body): \(result)")
            #expect(ids == ["1", "2"])
        }
    }

    @Test func numbersAsStringsAndStringsAsNumbersAreAccepted() async throws {
        try await withServerAndSandbox { server, sandbox in
            let body = FeedJSON.page(1, of: 1, photos: [
                FeedJSON.photo("30", extra: ["id": "30", "dateupload": "1700000000", "server": "65535"]),   // numbers for strings
                FeedJSON.photo("31", extra: ["title": "12.5"]),                                            // title a number
            ], counters: ["page": #""1""#, "pages": #""1""#, "perpage": #""2""#, "total": #""""#])
            let (result, ids) = try await fetchAfterBaseline(body, server, sandbox)
            #expect(result.status == 0, "\(result)")
            #expect(ids == ["1", "2", "30", "31"], "\(result)")
        }
    }

    @Test func badItemsAreSkippedAndNamed() async throws {
        try await withServerAndSandbox { server, sandbox in
            let body = FeedJSON.page(1, of: 1, perPage: 10, total: 10, photos: [
                FeedJSON.photo("40"),
                FeedJSON.photo("", title: "empty id"),
                FeedJSON.photo("-41", title: "negative id"),
                FeedJSON.photo(String(repeating: "9", count: 65), title: "long id"),
                FeedJSON.photo("42", extra: ["id": "null"]),
                FeedJSON.photo("43", extra: ["id": "<absent>"]),
                FeedJSON.photo("44", extra: ["owner": "null", "ownername": "null"]),
                FeedJSON.photo("45", extra: ["owner": "<absent>", "ownername": #""  ""#]),
                "null", "17",
            ])
            let (result, ids) = try await fetchAfterBaseline(body, server, sandbox)
            #expect(result.status == 0, "\(result)")
            #expect(ids == ["1", "2", "40"])
            let summary = try result.object()
            #expect(summary["received"] as? Int == 10)
            #expect(summary["skipped"] as? Int == 9)
            #expect(result.stderr.contains("skipped 9"), "\(result)")
            #expect(result.stderr.count < 2_000, "a 65-digit id is excerpted, not echoed in full: \(result)")
        }
    }

    @Test func missingOrNullOptionalFieldsStillStore() async throws {
        try await withServerAndSandbox { server, sandbox in
            let body = FeedJSON.page(1, of: 1, perPage: 4, total: 4, photos: [
                FeedJSON.photo("50", extra: ["title": "null", "description": "null"]),
                FeedJSON.photo("51", extra: ["title": "<absent>", "description": "<absent>", "dateupload": "<absent>"]),
                FeedJSON.photo("52", extra: ["description": #""plain string""#, "dateupload": #""yesterday""#]),
                FeedJSON.photo("53", extra: ["owner": "<absent>"]),
            ])
            let (result, ids) = try await fetchAfterBaseline(body, server, sandbox)
            #expect(result.status == 0, "\(result)")
            #expect(ids == ["1", "2", "50", "51", "52", "53"])
            let rows = try await sandbox("list", "--format", "json").array()
            let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0["id"] as? String ?? "?", $0) })
            #expect(byID["50"]?["title"] as? String == "Unknown")
            #expect(byID["52"]?["uploaded"] is NSNull)
        }
    }

    @Test(arguments: ["0", "1000000000000000"])
    func pagesZeroOrHugeIsBounded(pages: String) async throws {
        try await withServerAndSandbox { server, sandbox in
            let page = { (n: Int) in FeedJSON.page(n, of: 1, photos: [FeedJSON.photo("\(60 + n)")], counters: ["pages": pages]) }
            server.serve(Dictionary(uniqueKeysWithValues: (1...5).map { ($0, page($0)) }))
            let result = try await sandbox("fetch", "--url", server.feedURL, "--api-key", "k", environment: ["PHOTOSYNC_MAX_PAGES": "3"])
            #expect(result.status == 0, "\(result)")
            #expect(server.requestedPages == (pages == "0" ? [1] : [1, 2, 3]), "\(server.requestedPages)")
        }
    }

    @Test func duplicatePhotosWithinAndAcrossPages() async throws {
        try await withServerAndSandbox { server, sandbox in
            server.serve([
                1: FeedJSON.page(1, of: 2, perPage: 3, total: 6, photos: [
                    FeedJSON.photo("70", title: "first"), FeedJSON.photo("71"), FeedJSON.photo("70", title: "second"),
                ]),
                2: FeedJSON.page(2, of: 2, perPage: 3, total: 6, photos: [
                    FeedJSON.photo("71", owner: "Bruno Costa", title: "moved"), FeedJSON.photo("72"), FeedJSON.photo("70", title: "third"),
                ]),
            ])
            let result = try await sandbox("fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "3", "--format", "json")
            #expect(result.status == 0, "\(result)")
            let summary = try result.object()
            #expect(summary["received"] as? Int == 6)
            #expect(summary["skipped"] as? Int == 0)
            #expect(summary["repeated"] as? Int == 3, "70 twice more, 71 once more")
            #expect(summary["inserted"] as? Int == 3)
            let rows = try await sandbox("list", "--sort", "id", "--format", "json").array()
            #expect(rows.map { $0["id"] as? String } == ["70", "71", "72"])
            #expect(rows.map { $0["title"] as? String } == ["third", "moved", "T"])
            #expect(rows.map { $0["photographer"] as? String } == ["Ana Lima", "Bruno Costa", "Ana Lima"])
            try CatalogInspector(path: sandbox.db).expectConsistent(_: "duplicates")
        }
    }
}
