import Foundation
import Glibc
import PhotoSyncTestSupport
import Testing

@Suite("security: hostile text, the API key, file modes", .onTestThreads)
struct SecurityTests {
    static let hostile: [String] = [
        #"Robert'); DROP TABLE "Photo";--"#,
        #"" OR 1=1 --"#,
        #"'; DELETE FROM Photographer WHERE '1'='1"#,
        #"%' ESCAPE '\' ; PRAGMA writable_schema=1; --"#,
        #"back\slash "double" 'single' `tick`"#,
        "emoji 📷 and ünïcödé and 東京 and RTL \u{202E}txet",
        "tab\tinside and newline\ninside",
        "NUL-free <script>alert(1)</script> &amp; %s %n {{x}}",
    ]

    @Test func hostileTitlesAndNamesRoundTripByteForByte() async throws {
        try await withServerAndSandbox { server, sandbox in
            let photos = Self.hostile.enumerated().map { index, text in
                FeedJSON.photo("\(100 + index)", owner: "Owner " + text, title: text)
            }
            server.serve([1: FeedJSON.page(1, of: 1, perPage: photos.count, total: photos.count, photos: photos)])
            let fetch = try await sandbox("fetch", "--url", server.feedURL, "--api-key", "k")
            #expect(fetch.status == 0, "\(fetch)")
            let rows = try await sandbox("list", "--sort", "id", "--format", "json").array()
            #expect(rows.map { $0["title"] as? String } == Self.hostile)
            #expect(rows.map { $0["photographer"] as? String } == Self.hostile.map { "Owner " + $0 })
            for text in Self.hostile.prefix(3) {
                let one = try await sandbox("list", "--photographer", "Owner " + text, "--format", "json").array()
                #expect(one.map { $0["title"] as? String } == [text])
            }
            try CatalogInspector(path: sandbox.db).expectConsistent(_: "hostile text")
            #expect(try await sandbox("status", "--format", "json").object()["photos"] as? Int == Self.hostile.count)
        }
    }

    @Test func apiKeyAppearsInNoOutputAndNoFile() async throws {
        let key = "S3cretKey0123456789abcdefDEADBEEF"
        try await withSandbox { sandbox in
            let page1 = FeedJSON.page(1, of: 2, photos: [FeedJSON.photo("11"), FeedJSON.photo("12")])
            let server = try ScriptedServer { page, _ in
                page == 1 ? .json(page1) : .http(302, headers: ["Location": "file:///etc/passwd"])
            }
            defer { server.stop() }
            var outputs: [Sandbox.Result] = []
            for verbosity in [[], ["--verbose"], ["--quiet"]] {
                outputs.append(try await sandbox.run(["fetch", "--db", sandbox.db, "--url", server.url, "--api-key", key, "--retries", "0",
                                                      "--per-page", "2", "--full"] + verbosity))
                outputs.append(try await sandbox.run(["fetch", "--db", sandbox.db, "--url", server.url, "--retries", "0", "--pages", "1",
                                                      "--per-page", "2", "--format", "json"] + verbosity,
                                                     environment: ["PHOTOSYNC_API_KEY": key]))
            }
            #expect(outputs.map(\.status) == [69, 0, 69, 0, 69, 0], "\(outputs)")
            for args in [["status"], ["status", "--format", "json"], ["status", "--verbose"], ["list", "--verbose"], ["photographers"]] {
                outputs.append(try await sandbox.run(args + ["--db", sandbox.db]))
            }
            for output in outputs {
                #expect(!output.stdout.contains(key) && !output.stderr.contains(key), "\(output)")
            }
            let stored = try sandbox.storedBytes()
            #expect(stored["catalog"] != nil, "\(stored.keys)")
            for (name, bytes) in stored {
                #expect(bytes.range(of: Data(key.utf8)) == nil, "\(name) holds the key")
            }
        }
    }

    @Test func catalogLockWalAndShmAreOwnerOnly() async throws {
        try await withServerAndSandbox { server, sandbox in
            server.serve([1: FeedJSON.page(1, of: 1, photos: [FeedJSON.photo("1")])])
            // A fetch that is still running has its -wal and -shm open. (A long timeout: on a busy
            // machine this test may look late, and a fetch that timed out has closed its catalog.)
            let slow = try ScriptedServer { _, _ in .silence }
            defer { slow.stop() }
            let running = try sandbox.start(["fetch", "--db", sandbox.db, "--url", slow.url, "--api-key", "k", "--timeout", "300", "--retries", "0"])
            #expect(await eventually(within: 15) { slow.requestedPages.count == 1 })
            #expect(await eventually(within: 15) {
                FileManager.default.fileExists(atPath: sandbox.db + "-wal") && FileManager.default.fileExists(atPath: sandbox.db + "-shm")
            })
            var modes: [String: mode_t] = [:]
            for suffix in ["", ".lock", "-wal", "-shm"] {
                var info = stat()
                if stat(sandbox.db + suffix, &info) == 0 { modes[suffix] = info.st_mode & 0o777 }
            }
            running.signal(SIGKILL)
            _ = await running.finish()
            #expect(modes["-wal"] != nil && modes["-shm"] != nil, "\(modes)")
            for (suffix, mode) in modes {
                #expect(mode == 0o600, "catalog.sqlite\(suffix) has mode \(String(mode, radix: 8))")
            }
        }
    }
}
