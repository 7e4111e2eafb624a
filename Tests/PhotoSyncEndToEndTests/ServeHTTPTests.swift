import Foundation
import PhotoSyncTestSupport
import Testing

/// `photosync serve` at the HTTP level, without a browser: headers, statuses, the API, files.
@Suite(.serialized, .onTestThreads)
struct ServeHTTPTests {
    /// A catalog fetched from `items` (images downloaded when `download`), served; `serve` gets `args`
    /// and, when `configuring`, that text as the default config file.
    func withGallery(_ kind: CatalogKind = .sqlite, items: [FeedItem]? = nil, download: Bool = false, args: [String] = [], environment: [String: String] = [:],
                     configuring config: String? = nil, _ body: (DownloadFixture, ServedGallery) async throws -> Void) async throws {
        try await withDownloadFixture(kind) { fixture in
            if let config { try Self.writeConfig(config, in: fixture.photosync) }
            let items = items ?? DownloadFixture.items(["101", "102", "103"], server: fixture.server)
            for (index, item) in items.enumerated() {
                fixture.server.route("/img/\(item.id).jpg") { _ in Images.response(Images.jpeg(2000 + index, seed: UInt64(index))) }
            }
            try await fixture.fetch(items)
            if download { try #require(try await fixture.download().status == 0) }
            let gallery = try await ServedGallery.start(fixture.photosync, ["--files", fixture.files] + args, environment: environment)
            do {
                try await body(fixture, gallery)
            } catch {
                _ = await gallery.stop()
                throw error
            }
            let stopped = await gallery.stop()
            #expect(stopped.status == 0, "\(stopped)")
        }
    }

    @Test func everyReplyCarriesTheSecurityHeadersAndOnlyGETAndHEADAreAnswered() async throws {
        try await withGallery { _, gallery in
            for path in ["/", "/photographers/Ana%20Lima", "/photos/101", "/search?q=photo", "/runs", "/api/photos", "/nowhere"] {
                let response = try await gallery.request(path)
                #expect(response.header("Content-Security-Policy")?.hasPrefix("default-src 'self'") == true, "\(path)")
                #expect(response.header("X-Content-Type-Options") == "nosniff", "\(path)")
                #expect(response.header("Referrer-Policy") == "no-referrer", "\(path)")
            }
            #expect(try await gallery.request("/nowhere").status == 404)
            #expect(try await gallery.request("/photos/999").status == 404)
            #expect(try await gallery.request("/photographers/Nobody").status == 404)
            for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
                let response = try await gallery.request("/api/photos", method: method)
                #expect(response.status == 405, "\(method)")
                #expect(response.header("Allow") == "GET, HEAD")
            }
            let get = try await gallery.request("/photos/101"), head = try await gallery.request("/photos/101", method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == String(get.body.count))
            let bad = try await gallery.request("/?after=nobody")
            #expect(bad.status == 400 && !bad.text.contains("Traceback"))
        }
    }

    /// On PostgreSQL too, where serve reads in READ ONLY transactions.
    @Test(arguments: [CatalogKind.sqlite, .postgres])
    func apiPhotosIsListFormatJSONByteForByte(_ kind: CatalogKind) async throws {
        try await withGallery(kind, download: true) { fixture, gallery in
            let cases: [(String, [String])] = [
                ("/api/photos", []),
                ("/api/photos?photographer=Ana%20Lima&sort=uploaded&limit=2", ["--photographer", "Ana Lima", "--sort", "uploaded", "--limit", "2"]),
                ("/api/photos?q=PHOTO%20102&sort=id", ["--search", "PHOTO 102", "--sort", "id"]),
                ("/api/photos?since=2023-11-14&limit=1&offset=1", ["--since", "2023-11-14", "--limit", "1", "--offset", "1"]),
            ]
            for (path, options) in cases {
                let api = try await gallery.request(path)
                let list = try await fixture.run(["list", "--format", "json"] + options)
                #expect(api.status == 200 && api.header("Content-Type") == "application/json; charset=utf-8")
                #expect(api.text == list.stdout, "\(path)")
            }
            let status = try await fixture.run("status", "--format", "json")
            #expect(try await gallery.request("/api/status").text == status.stdout)
            #expect(try await gallery.request("/api/photos?sort=sideways").status == 400)
        }
    }
}

extension ServeHTTPTests {
    /// serve reads a SQLite catalog read-only, so a fetch can write beside it (WAL), and the next
    /// page shows the new photos.
    @Test func aFetchWritesWhileServeReads() async throws {
        try await withGallery { fixture, gallery in
            let before = try jsonArrayText(try await gallery.request("/api/photos").text)
            let more = DownloadFixture.items(["101", "102", "103", "104"], server: fixture.server)
            try await fixture.fetch(more)
            let after = try jsonArrayText(try await gallery.request("/api/photos").text)
            #expect(before.count == 3 && after.count == 4)
        }
    }

    @Test func noCatalogIsExit66AndNothingIsCreated() async throws {
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        let result = try await photosync("serve", "--port", "0")
        #expect(result.status == 66 && result.stderrLines.count == 1, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: photosync.db))
    }

    /// `text` as the sandbox's default config file ($XDG_CONFIG_HOME/photosync/config.yaml, 0600).
    static func writeConfig(_ text: String, in photosync: PhotoSync) throws {
        let folder = photosync.directory + "/config/photosync"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: folder + "/config.yaml", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder + "/config.yaml")
    }

    private func jsonArrayText(_ text: String) throws -> [Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any])
    }
}

extension DownloadFixture {
    func run(_ args: [String], environment: [String: String] = [:]) async throws -> PhotoSync.Result {
        try await photosync.run(args + ["--files", files, "--db", photosync.db], environment: environment)
    }
}
