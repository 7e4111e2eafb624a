import Foundation
import PhotoSyncTestSupport
import Testing

/// `photosync serve` in headless Chromium (Debian's `chromium`, driven over the DevTools protocol
/// by Tests/browser/gallery_check.py): navigation, search, pagination, hostile text, layout, dark mode.
/// Screenshots go to .build/test-artifacts/serve/.
@Suite(.serialized, .onTestThreads)
struct ServeBrowserTests {
    static let artifacts = packageRoot + "/.build/test-artifacts/serve"
    static let hostileTitles = ["<script>window.pwned=1;alert(1)</script>", "\"><img src=x onerror=alert(1)>", "\u{202E}gnp.exe"]

    /// Ana Lima with 50 photos (three pages of 24), a few others, and a hostile photographer whose
    /// name has `/` and `?` in it; every photo has a real PNG downloaded.
    static func items(_ server: TestHTTPServer) -> [FeedItem] {
        var items: [FeedItem] = (1...50).map { (n: Int) -> FeedItem in
            FeedItem(String(1000 + n), by: "Ana Lima", title: "Dunes at dawn \(n)", uploaded: String(1_700_000_000 + n * 60))
        }
        for (index, name) in ["Bruno Costa", "Chloé Martin", "Dmitri Volkov"].enumerated() {
            for n in 1...3 {
                items.append(FeedItem(String(2000 + index * 10 + n), by: name, title: "Harbour lights \(index)\(n)", uploaded: String(1_700_100_000 + n)))
            }
        }
        items += hostileTitles.enumerated().map { index, title in
            var item = FeedItem(String(3000 + index), by: "Eve/Mallory?x=1", title: title, description: "javascript:alert(2)")
            item.imageURL = "javascript:alert(3)"
            return item
        }
        for (index, item) in items.enumerated() where !item.id.hasPrefix("3") {
            items[index].imageURL = server.url("/img/\(item.id).jpg")
            let png = TestPNG.make(width: 160, height: 120, hue: index % 7)
            server.route("/img/\(item.id).jpg") { _ in Images.response(png, type: "image/png") }
        }
        return items
    }

    func withBrowserGallery(_ body: (DownloadFixture, ServedGallery) async throws -> Void) async throws {
        try await withDownloadFixture(.sqlite) { fixture in
            try await fixture.fetch(Self.items(fixture.server))
            try #require(try await fixture.download().status == 0)
            let gallery = try await ServedGallery.start(fixture.photosync, ["--files", fixture.files])
            defer { gallery.running.signal(SIGTERM) }
            try await body(fixture, gallery)
        }
    }

    /// Runs one scenario of gallery_check.py; its JSON result, or a recorded failure.
    func check(_ scenario: String, _ gallery: ServedGallery, _ fixture: DownloadFixture, _ expect: [String: Any]) async throws {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: expect), as: UTF8.self)
        let script = packageRoot + "/Tests/browser/gallery_check.py"
        let result = try await fixture.photosync.start(command: ["/usr/bin/env", "python3", script, scenario, gallery.base, Self.artifacts, json]).finish()
        #expect(result.status == 0, "\(scenario): \(result.stdout)\(result.stderr)")
    }

    func ids(_ fixture: DownloadFixture, _ args: String...) async throws -> [String] {
        try jsonArray(try await fixture.run(["list", "--format", "json"] + args)).compactMap { $0["id"] as? String }
    }

    @Test func navigatesFromPhotographersToAPhotoAndBack() async throws {
        try await withBrowserGallery { fixture, gallery in
            try await check("navigation", gallery, fixture, ["first_photographer": "Ana Lima"])
        }
    }

    @Test func searchFindsWhatListSearchFinds() async throws {
        try await withBrowserGallery { fixture, gallery in
            let expected = try await ids(fixture, "--search", "HARBOUR")
            #expect(expected.count == 9)
            try await check("search", gallery, fixture, ["query": "HARBOUR", "ids": expected])
        }
    }

    @Test func pagesThroughAPhotographerToTheLastPage() async throws {
        try await withBrowserGallery { fixture, gallery in
            let expected = try await ids(fixture, "--photographer", "Ana Lima")
            try await check("pagination", gallery, fixture, ["photographer": "Ana Lima", "ids": expected, "pages": 3])
        }
    }

    @Test func hostileFeedTextShowsAsTextAndRunsNothing() async throws {
        try await withBrowserGallery { fixture, gallery in
            let shown = Self.hostileTitles.map { $0.replacingOccurrences(of: "\u{202E}", with: "\\u{202E}") }
            try await check("hostile", gallery, fixture, [
                "photographer": "Eve/Mallory?x=1", "ids": ["3000", "3001", "3002"], "query": "alert", "shown": shown,
            ])
        }
    }

    @Test(arguments: [[390, 844], [1440, 900]])
    func noPageOverflowsTheViewport(_ size: [Int]) async throws {
        try await withBrowserGallery { fixture, gallery in
            let pages = ["home": "/", "photographer": "/photographers/Ana%20Lima", "photo": "/photos/1001",
                         "search": "/search?q=dunes", "runs": "/runs", "hostile": "/photographers/Eve%2FMallory%3Fx%3D1"]
            try await check("layout", gallery, fixture, ["viewport": size, "label": "\(size[0])x\(size[1])", "pages": pages])
        }
    }

    /// `prefers-color-scheme: dark`, emulated over DevTools: a dark background, every text readable.
    @Test func darkModeIsDarkAndEveryTextReadable() async throws {
        try await withBrowserGallery { fixture, gallery in
            let pages = ["home": "/", "photographer": "/photographers/Ana%20Lima", "photo": "/photos/1001",
                         "search": "/search?q=dunes", "runs": "/runs", "missing": "/photos/404"]
            try await check("dark", gallery, fixture, ["pages": pages])
        }
    }
}
