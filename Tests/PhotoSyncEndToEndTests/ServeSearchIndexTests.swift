import Foundation
import PhotoSyncTestSupport
import Testing

/// `/search` and `/api/photos?q=` through serve's search index answer exactly as `list --search`
/// does (which reads every title), also after a fetch changed the catalog while serve ran: new
/// photos, edited titles (the index catches up from the catalog's history) and a deleted photo.
@Suite(.serialized, .onTestThreads)
struct ServeSearchIndexTests {
    static let words = ["Straße", "STRASSE", "café", "Brücke", "日本の夜景", "σοφός", "bridge", "night", "harbour", "zebra"]

    static func items(_ range: ClosedRange<Int>, seed: UInt64, marker: String = "") -> [FeedItem] {
        var random = SeededRandom(seed: seed)
        return range.map { number in
            let title = (0..<3).map { _ in random.pick(words) }.joined(separator: " ") + (number % 7 == 0 ? marker : "")
            return FeedItem("\(number)", by: random.pick(["Ana Lima", "Bo Chen"]), title: title,
                            description: random.pick(["", "by the harbour", "Nacht über der Brücke"]), uploaded: String(1_700_000_000 + number))
        }
    }

    static let needles = ["strasse", "BRÜCKE", "日本の", "σοφ", "harb", "zzqx", "ss", "é", "NEWWORD", "night bridge"]

    @Test(arguments: [CatalogKind.sqlite, .postgres])
    func searchesEqualListAcrossAFetch(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            try await Self.fetch(Self.items(1...60, seed: 1), photosync, server)
            let gallery = try await ServedGallery.start(photosync)
            let ready = try await Self.waitForIndex(gallery)
            #expect(ready.contains("search index ready: 60 photos indexed"), "\(ready)")
            try await Self.expectSameAsList(gallery, photosync)
            // Ids 1-60 again with other titles (every seventh carrying a new word), and 61-80.
            try await Self.fetch(Self.items(1...80, seed: 2, marker: " NEWWORD"), photosync, server)
            #expect(try await photosync("delete", "5", "--db", photosync.db).status == 0)
            try await Self.expectSameAsList(gallery, photosync)
            let stopped = await gallery.stop()
            #expect(stopped.status == 0, "\(stopped)")
        }
    }

    /// A cache folder that cannot be made: one warning, and searches read every title.
    @Test func withoutACacheFolderSearchesStillAnswer() async throws {
        try await withSandbox(.sqlite) { photosync, server in
            try await Self.fetch(Self.items(1...30, seed: 3), photosync, server)
            let blocker = photosync.directory + "/not-a-folder"
            try Data().write(to: URL(fileURLWithPath: blocker))
            let gallery = try await ServedGallery.start(photosync, environment: ["XDG_CACHE_HOME": blocker])
            let said = try await Self.waitForIndex(gallery)
            #expect(said.contains("warning: no search index, searches read every title"), "\(said)")
            try await Self.expectSameAsList(gallery, photosync)
            #expect(await gallery.stop().status == 0)
        }
    }

    static func fetch(_ items: [FeedItem], _ photosync: PhotoSync, _ server: TestHTTPServer) async throws {
        server.serveFeed(Feed.pages(items, perPage: 100))
        let fetch = try await photosync("fetch", "--url", server.feedURL, "--merge-policy", "object-trump", environment: ["PHOTOSYNC_API_KEY": "k"])
        try #require(fetch.status == 0, "\(fetch)")
    }

    /// The stderr line about the index, once serve has said it.
    static func waitForIndex(_ gallery: ServedGallery) async throws -> String {
        for _ in 0..<2400 {
            if let line = gallery.running.stderrSoFar.split(separator: "\n").first(where: { $0.contains("search index") }) { return String(line) }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("serve said nothing about its search index: \(gallery.running.stderrSoFar)")
        return ""
    }

    /// Each needle: the API's JSON is `list --format json --search`'s byte for byte, and the search
    /// pages (followed by `rel=next`) show list's photos newest first.
    static func expectSameAsList(_ gallery: ServedGallery, _ photosync: PhotoSync) async throws {
        for needle in needles {
            let query = needle.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let list = try await photosync("list", "--format", "json", "--search", needle, "--db", photosync.db)
            #expect(try await gallery.request("/api/photos?q=\(query)").text == list.stdout, "\(needle)")
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
            let newestFirst = listed.compactMap { $0["id"] as? String }.sorted { Int($0)! > Int($1)! }
            #expect(try await searchPages(gallery, "/search?q=\(query)") == newestFirst, "\(needle)")
        }
    }

    /// The photo ids the search pages link, in order, following `rel=next` to the last page.
    static func searchPages(_ gallery: ServedGallery, _ first: String) async throws -> [String] {
        var (ids, path): ([String], String?) = ([], first)
        while let current = path {
            let page = try await gallery.request(current).text
            ids += page.matches(of: /<a href="\/photos\/(\d+)"/).map { String($0.output.1) }
            path = page.firstMatch(of: /<a rel="next" href="([^"]+)"/).map { String($0.output.1).replacing("&amp;", with: "&") }
        }
        return ids
    }
}
