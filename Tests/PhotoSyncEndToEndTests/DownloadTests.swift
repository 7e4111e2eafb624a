import Foundation
import PhotoSyncTestSupport
import Testing

/// Images an end-to-end download test serves: real signatures, distinct bytes.
enum Images {
    static func jpeg(_ size: Int, seed: UInt64) -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xE0] + noise(size - 4, seed: seed) }
    static func png(_ size: Int, seed: UInt64) -> [UInt8] { [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + noise(size - 8, seed: seed) }
    static let htmlPage = Array("<!DOCTYPE html><html><body>Please log in to the Wi-Fi</body></html>".utf8)

    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededRandom(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    static func response(_ body: [UInt8], type: String = "image/jpeg") -> TestResponse {
        TestResponse(status: 200, headers: ["Content-Type": type], body: body)
    }
}

/// A sandbox with a catalog fetched from `items`, whose images the same server serves.
struct DownloadFixture {
    let photosync: PhotoSync
    let server: TestHTTPServer
    var files: String { photosync.directory + "/files" }

    /// Items `id` → image path `/img/<id>.jpg` on the server.
    static func items(_ ids: [String], server: TestHTTPServer) -> [FeedItem] {
        ids.map { id in
            var item = FeedItem(id, by: "Ana Lima", title: "Photo \(id)")
            item.imageURL = server.url("/img/\(id).jpg")
            return item
        }
    }

    func fetch(_ items: [FeedItem]) async throws {
        server.serveFeed(Feed.pages(items, perPage: 100))
        let fetch = try await photosync("fetch", "--url", server.feedURL, environment: ["PHOTOSYNC_API_KEY": "k"])
        try #require(fetch.status == 0, "\(fetch)")
    }

    /// `download ARGS --files <sandbox>/files --format json`.
    func download(_ args: String...) async throws -> PhotoSync.Result {
        try await photosync.run(["download"] + args + ["--files", files, "--format", "json", "--db", photosync.db])
    }

    func run(_ args: String..., environment: [String: String] = [:]) async throws -> PhotoSync.Result {
        try await photosync.run(args + ["--files", files, "--db", photosync.db], environment: environment)
    }

    var imageRequests: Int { server.requests.filter { $0.path.hasPrefix("/img/") }.count }

    func contents(_ name: String) -> [UInt8]? { FileManager.default.contents(atPath: files + "/" + name).map(Array.init) }

    func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: files)) ?? []).sorted() }
}

func withDownloadFixture(_ kind: CatalogKind, _ body: (DownloadFixture) async throws -> Void) async throws {
    try await withSandbox(kind) { photosync, server in try await body(DownloadFixture(photosync: photosync, server: server)) }
}

@Suite("download: files kept, verified, incremental", .onTestThreads)
struct DownloadTests {
    @Test(arguments: CatalogKind.allCases) func downloadsVerifiesAndSkipsWhatIsPresent(_ kind: CatalogKind) async throws {
        try await withDownloadFixture(kind) { fixture in
            let (jpeg, png) = (Images.jpeg(120_000, seed: 1), Images.png(40_000, seed: 2))
            fixture.server.route("/img/11.jpg", Images.response(jpeg))
            // A PNG at a .jpg URL, served as image/jpeg: kept as .png.
            fixture.server.route("/img/12.jpg", Images.response(png))
            try await fixture.fetch(DownloadFixture.items(["11", "12"], server: fixture.server))

            let first = try await fixture.download()
            #expect(first.status == 0, "\(first)")
            let summary = try jsonObject(first)
            #expect(summary as NSDictionary == ["downloaded": 2, "bytes": 160_000, "present": 0, "unavailable": 0, "failed": 0, "pending": 0])
            #expect(fixture.names() == ["11_l.jpg", "12_l.png"])
            #expect(fixture.contents("11_l.jpg") == jpeg)
            #expect(fixture.contents("12_l.png") == png)

            let status = try jsonObject(try await fixture.run("status", "--format", "json"))
            #expect(status["files"] as? Int == 2 && status["file_bytes"] as? Int == 160_000 && status["files_pending"] as? Int == 0, "\(status)")

            // Incremental: nothing is requested for files already present.
            let requests = fixture.imageRequests
            let second = try await fixture.download()
            #expect(second.status == 0, "\(second)")
            #expect(try jsonObject(second)["present"] as? Int == 2)
            #expect(try jsonObject(second)["downloaded"] as? Int == 0)
            #expect(fixture.imageRequests == requests)
        }
    }

    @Test func theDefaultFolderIsFilesBesideTheCatalogAndPathsAreAbsolute() async throws {
        try await withDownloadFixture(.sqlite) { fixture in
            fixture.server.route("/img/5.jpg", Images.response(Images.jpeg(1_000, seed: 5)))
            try await fixture.fetch(DownloadFixture.items(["5"], server: fixture.server))
            let result = try await fixture.photosync("download")
            #expect(result.status == 0, "\(result)")
            let folder = (fixture.photosync.db as NSString).deletingLastPathComponent + "/files"
            #expect(FileManager.default.contents(atPath: folder + "/5_l.jpg").map(Array.init) == Images.jpeg(1_000, seed: 5))
            let show = try jsonObject(try await fixture.photosync("show", "5", "--format", "json"))
            let file = try #require(show["file"] as? [String: Any], "\(show)")
            #expect(file["path"] as? String == folder + "/5_l.jpg")
            #expect(file["size"] as? Int == 1_000 && file["size_label"] as? String == "l" && file["content_type"] as? String == "image/jpeg")
            #expect((file["sha256"] as? String)?.count == 64)
            let list = try jsonArray(try await fixture.photosync("list", "--format", "json"))
            #expect(list.map { $0["file"] as? String } == [folder + "/5_l.jpg"])
        }
    }

    @Test(arguments: CatalogKind.allCases) func refusalsAndPagesThatAreNoImageMarkThePhotoUnavailable(_ kind: CatalogKind) async throws {
        try await withDownloadFixture(kind) { fixture in
            fixture.server.route("/img/21.jpg", Images.response(Images.htmlPage))
            fixture.server.route("/img/22.jpg", .status(404))
            fixture.server.route("/img/23.jpg", .status(410))
            try await fixture.fetch(DownloadFixture.items(["21", "22", "23"], server: fixture.server))

            let first = try await fixture.download()
            #expect(first.status == 0, "unavailable is the photo's state, not a failed run: \(first)")
            #expect(try jsonObject(first)["unavailable"] as? Int == 3)
            #expect(fixture.names().isEmpty, "no file, not even a temporary one: \(fixture.names())")
            #expect(first.stderr.contains("photo 21: unavailable: not a JPEG, PNG, GIF or WebP image (served as image/jpeg)"), "\(first)")
            let status = try jsonObject(try await fixture.run("status", "--format", "json"))
            #expect(status["files_unavailable"] as? Int == 3 && status["files"] as? Int == 0, "\(status)")

            // Remembered: no request inside the back-off, one each with --retry-unavailable.
            let requests = fixture.imageRequests
            let again = try await fixture.download()
            #expect(try jsonObject(again)["unavailable"] as? Int == 3)
            #expect(fixture.imageRequests == requests)
            fixture.server.route("/img/22.jpg", Images.response(Images.jpeg(500, seed: 22)))
            let retried = try await fixture.download("--retry-unavailable")
            #expect(fixture.imageRequests == requests + 3)
            #expect(try jsonObject(retried)["downloaded"] as? Int == 1)
            #expect(fixture.contents("22_l.jpg") == Images.jpeg(500, seed: 22))
        }
    }

    @Test func dryRunRequestsAndWritesNothing() async throws {
        try await withDownloadFixture(.sqlite) { fixture in
            fixture.server.route("/img/31.jpg", Images.response(Images.jpeg(800, seed: 31)))
            try await fixture.fetch(DownloadFixture.items(["31", "32"], server: fixture.server))
            let catalog = fixture.photosync.fileBytes()
            let result = try await fixture.download("--dry-run")
            #expect(result.status == 0, "\(result)")
            #expect(try jsonObject(result)["pending"] as? Int == 2)
            #expect(fixture.imageRequests == 0)
            #expect(!FileManager.default.fileExists(atPath: fixture.files))
            #expect(fixture.photosync.fileBytes() == catalog)
        }
    }

    @Test(arguments: CatalogKind.allCases) func failedTransfersExitOneAndAreTriedAgainNextRun(_ kind: CatalogKind) async throws {
        try await withDownloadFixture(kind) { fixture in
            fixture.server.route("/img/41.jpg", .status(503))
            fixture.server.route("/img/42.jpg", Images.response(Images.jpeg(900, seed: 42)))
            try await fixture.fetch(DownloadFixture.items(["41", "42"], server: fixture.server))
            let first = try await fixture.download("--retries", "0")
            #expect(first.status == 1, "\(first)")
            let summary = try jsonObject(first)
            #expect(summary["failed"] as? Int == 1 && summary["pending"] as? Int == 1 && summary["downloaded"] as? Int == 1, "\(summary)")
            #expect(fixture.names() == ["42_l.jpg"])

            fixture.server.route("/img/41.jpg", Images.response(Images.jpeg(700, seed: 41)))
            let second = try await fixture.download()
            #expect(second.status == 0, "\(second)")
            #expect(try jsonObject(second)["downloaded"] as? Int == 1)
            #expect(fixture.contents("41_l.jpg") == Images.jpeg(700, seed: 41))
        }
    }

    @Test func retriesA429WithinTheRun() async throws {
        try await withDownloadFixture(.sqlite) { fixture in
            fixture.server.route("/img/45.jpg", .status(429, headers: ["Retry-After": "0"]), Images.response(Images.jpeg(600, seed: 45)))
            try await fixture.fetch(DownloadFixture.items(["45"], server: fixture.server))
            let result = try await fixture.download()
            #expect(result.status == 0, "\(result)")
            #expect(fixture.server.requests(to: "/img/45.jpg").count == 2)
            #expect(fixture.contents("45_l.jpg") == Images.jpeg(600, seed: 45))
        }
    }

    @Test func maxBytesStopsTheRunWith75AndTheNextRunFinishes() async throws {
        try await withDownloadFixture(.sqlite) { fixture in
            let ids = ["51", "52", "53"]
            for (index, id) in ids.enumerated() {
                fixture.server.route("/img/\(id).jpg", Images.response(Images.jpeg(100_000, seed: UInt64(50 + index))))
            }
            try await fixture.fetch(DownloadFixture.items(ids, server: fixture.server))
            let first = try await fixture.download("--max-bytes", "150000", "--jobs", "1")
            #expect(first.status == 75, "\(first)")
            #expect(first.stderr.contains("run again to continue"), "\(first)")
            let summary = try jsonObject(first)
            #expect(summary["downloaded"] as? Int == 1 && summary["pending"] as? Int == 2, "\(summary)")
            #expect(fixture.names().filter { !$0.hasPrefix(".") } == ["51_l.jpg"])

            let second = try await fixture.download()
            #expect(second.status == 0, "\(second)")
            for (index, id) in ids.enumerated() {
                #expect(fixture.contents("\(id)_l.jpg") == Images.jpeg(100_000, seed: UInt64(50 + index)))
            }
        }
    }

    @Test func aPostgresCatalogNeedsAFilesFolder() async throws {
        try await withSandbox(.postgres) { photosync, server in
            let fixture = DownloadFixture(photosync: photosync, server: server)
            try await fixture.fetch(DownloadFixture.items(["61"], server: server))
            let result = try await photosync("download")
            #expect(result.status == 78, "\(result)")
            #expect(result.stderrLines.count == 1 && result.stderr.contains("--files DIR"), "\(result)")
        }
    }

    @Test func badOptionsAreOneLineAndStatus64() async throws {
        try await withDownloadFixture(.sqlite) { fixture in
            let cases = [(["--jobs", "0"], "--jobs"), (["--size", "xl"], "--size unknown size \"xl\""), (["--max-bytes", "0"], "--max-bytes")]
            for (args, flag) in cases {
                let result = try await fixture.photosync.run(["download"] + args + ["--db", fixture.photosync.db])
                #expect(result.status == 64, "\(args): \(result)")
                #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("photosync: \(flag)"), "\(result)")
            }
        }
    }
}

@Suite("fetch --download", .onTestThreads)
struct FetchThenDownloadTests {
    @Test(arguments: CatalogKind.allCases) func fetchDownloadFetchesThenDownloadsInOneRun(_ kind: CatalogKind) async throws {
        try await withDownloadFixture(kind) { fixture in
            fixture.server.route("/img/81.jpg", Images.response(Images.jpeg(2_000, seed: 81)))
            let items = DownloadFixture.items(["81"], server: fixture.server)
            fixture.server.serveFeed(Feed.pages(items, perPage: 100))
            let result = try await fixture.run("fetch", "--download", "--url", fixture.server.feedURL, "--format", "json",
                                               environment: ["PHOTOSYNC_API_KEY": "k"])
            #expect(result.status == 0, "\(result)")
            let summary = try jsonObject(result)
            #expect(summary["inserted"] as? Int == 1, "\(summary)")
            #expect((summary["download"] as? [String: Any])?["downloaded"] as? Int == 1, "\(summary)")
            #expect(fixture.contents("81_l.jpg") == Images.jpeg(2_000, seed: 81))
        }
    }
}

@Suite("download: untrusted URLs", .onTestThreads)
struct UntrustedImageURLTests {
    /// `file:` is refused before any I/O (the photo becomes unavailable, with the reason); a
    /// local service that is no web server (an SSH banner here) leaves nothing behind.
    @Test func fileURLsAreRefusedAndOtherServicesAreHarmless() async throws {
        try await withDownloadFixture(.sqlite) { fixture in
            let ssh = try RawSocketServer(.sendWithoutReading(Array("SSH-2.0-OpenSSH_9.6\r\n".utf8)))
            defer { ssh.stop() }
            var passwd = FeedItem("95", by: "Ana Lima", title: "t")
            passwd.imageURL = "file:///etc/passwd"
            var service = FeedItem("96", by: "Ana Lima", title: "t")
            service.imageURL = ssh.baseURL + "/"
            try await fixture.fetch([passwd, service])
            let result = try await fixture.download("--retries", "0")
            #expect(result.status == 1, "\(result)")
            let summary = try jsonObject(result)
            #expect(summary["unavailable"] as? Int == 1 && summary["failed"] as? Int == 1 && summary["downloaded"] as? Int == 0, "\(summary)")
            #expect(result.stderr.contains("photo 95: unavailable:") && result.stderr.contains("file:///etc/passwd"), "\(result)")
            #expect(fixture.names().isEmpty, "\(fixture.names())")
        }
    }
}
