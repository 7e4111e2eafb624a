import Foundation
import PhotoSyncTestSupport
import Testing

/// The smaller breaks of the adversarial trial (issue 21), each with its documented status.
@Suite("odd input from the server, the config and the feed", .onTestThreads)
struct OddInputTests {
    /// A 5 MB response header is the server's fault (69), not "out of memory" (71).
    @Test func aHugeResponseHeaderIsAServerFault() async throws {
        let server = try ScriptedServer { _, _ in .http(200, headers: ["X-Huge": String(repeating: "a", count: 5 << 20)]) }
        defer { server.stop() }
        try await withSandbox { sandbox in
            let fetch = try await sandbox("fetch", "--url", server.url, "--api-key", "k", "--retries", "0")
            #expect(fetch.status == 69, "\(fetch)")
            #expect(fetch.stderrLines.count == 1 && !fetch.stderr.contains("out of memory") && fetch.stderr.contains("header"), "\(fetch)")
        }
    }

    /// A page count too large for any integer is quoted as the feed wrote it, not as `1e+23`.
    @Test func aHugePageCountIsQuotedAsSent() async throws {
        try await withServerAndSandbox { server, sandbox in
            server.serve([1: FeedJSON.page(1, of: 1, photos: [FeedJSON.photo("1")], counters: ["pages": "99999999999999999999999"])])
            let fetch = try await sandbox("fetch", "--url", server.feedURL, "--api-key", "k")
            #expect(fetch.status == 65, "\(fetch)")
            #expect(fetch.stderr.contains("99999999999999999999999") && !fetch.stderr.contains("e+"), "\(fetch)")
        }
    }

    /// A catalog in /proc is not "disk full": /proc has no blocks to run out of.
    @Test func aCatalogInProcIsNotDiskFull() async throws {
        try await withSandbox { sandbox in
            let fetch = try await sandbox.run(["fetch", "--db", "/proc/self/mem", "--url", "http://127.0.0.1:9/rest", "--api-key", "k"])
            #expect(fetch.status == 74, "\(fetch)")
            #expect(fetch.stderrLines.count == 1 && !fetch.stderr.contains("disk full"), "\(fetch)")
        }
    }

    /// A 2,000-byte api_key (a 100 MB one ran a fetch past 60 s at 1.7 GB) is refused before any
    /// work: 78 from the config, 64 from the flag.
    @Test func anOverlongAPIKeyIsRefused() async throws {
        try await withSandbox { sandbox in
            let key = String(repeating: "k", count: 2000)
            let config = sandbox.directory + "/config.yaml"
            try "api_key: \(key)\n".write(toFile: config, atomically: true, encoding: .utf8)
            let fromConfig = try await sandbox("fetch", "--config", config, "--url", "http://127.0.0.1:9/rest")
            #expect(fromConfig.status == 78 && fromConfig.stderr.contains("longer than 1024 bytes") && !fromConfig.stderr.contains(key), "\(fromConfig)")
            let fromFlag = try await sandbox("fetch", "--api-key", key, "--url", "http://127.0.0.1:9/rest")
            #expect(fromFlag.status == 64 && fromFlag.stderr.contains("longer than 1024 bytes") && !fromFlag.stderr.contains(key), "\(fromFlag)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.db), "nothing was created")
        }
    }

    /// Line and paragraph separators and invisible characters in titles are shown escaped in
    /// tables: they break lines in some terminals and hide text.
    @Test func invisibleCharactersAreEscapedInTables() async throws {
        try await withServerAndSandbox { server, sandbox in
            let title = "a\u{2028}b\u{2029}c\u{200B}d\u{FEFF}e\u{200F}f"
            server.serve([1: FeedJSON.page(1, of: 1, perPage: 1, total: 1, photos: [FeedJSON.photo("1", title: title)])])
            #expect(try await sandbox("fetch", "--url", server.feedURL, "--api-key", "k").status == 0)
            for command in [["list"], ["show", "1"]] {
                let shown = try await sandbox.run(command + ["--db", sandbox.db])
                #expect(shown.stdout.contains(#"a\u{2028}b\u{2029}c\u{200B}d\u{FEFF}e\u{200F}f"#), "\(command[0]): \(shown)")
                #expect(!shown.stdout.unicodeScalars.contains { [0x2028, 0x2029, 0x200B, 0xFEFF, 0x200F].contains($0.value) }, "\(command[0])")
            }
            let json = try await sandbox("show", "1", "--format", "json").object()
            #expect(json["title"] as? String == title, "JSON keeps the text as it is")
        }
    }
}
