import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 14, cron logs: `--quiet` keeps skip notices off stderr; `--log-file` (or `log_file`)
/// records every run with timestamped lines and never the key.
@Suite("cron logs", .onTestThreads)
struct CronLogTests {
    static let key = "LogKey0123456789abcdef"

    static func feed(_ server: TestHTTPServer) {
        let items = [FeedItem("1", by: "Ana Lima", title: "One"), FeedItem("../x", by: "Ana Lima", title: "Bad id")]
        server.serveFeed(Feed.pages(items, perPage: 2))
    }

    @Test func quietPrintsNoSkipNoticesButTheLogKeepsThem() async throws {
        try await withSandbox { photosync, server in
            Self.feed(server)
            let log = photosync.directory + "/logs/fetch.log"
            let quiet = try await photosync("fetch", "--url", server.feedURL, "--quiet", "--log-file", log,
                                            environment: ["PHOTOSYNC_API_KEY": Self.key])
            #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet)")
            let normal = try await photosync("fetch", "--url", server.feedURL, "--full", environment: ["PHOTOSYNC_API_KEY": Self.key])
            #expect(normal.stderr.contains("skipped 1 item(s)"), "\(normal)")
            let json = try await photosync("fetch", "--url", server.feedURL, "--full", "--quiet", "--format", "json",
                                           environment: ["PHOTOSYNC_API_KEY": Self.key])
            #expect(try jsonObject(json)["skipped"] as? Int == 1, "--format json still prints its summary: \(json)")
            #expect(json.stderr.isEmpty, "\(json)")

            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            #expect(lines.count >= 4, "\(lines)")
            let stamp = #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z fetch\[\d+\] catalog=\S+ (ERROR|WARNING|NOTICE|INFO|DEBUG) /#
            #expect(lines.allSatisfy { $0.contains(stamp) }, "\(lines)")
            #expect(lines.first?.contains("INFO fetch started: ") == true, "\(lines)")
            #expect(lines.contains { $0.contains("INFO page 1 saved; totals so far: received 2, inserted 1") }, "\(lines)")
            #expect(lines.contains { $0.contains("NOTICE page 1: skipped 1 item(s)") }, "\(lines)")
            #expect(lines.last?.contains("INFO fetch finished: received 2, inserted 1") == true, "\(lines)")
            #expect(!lines.joined().contains(Self.key))
        }
    }

    @Test func theConfigFileNamesTheLogAndErrorsAreLogged() async throws {
        try await withSandbox { photosync, server in
            server.route(Feed.path, .status(500))
            let log = photosync.directory + "/home/state/photosync.log"
            let config = photosync.directory + "/config.yaml"
            try "log_file: ~/state/photosync.log\napi_key: \(Self.key)\nretries: 0\n".write(toFile: config, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config)
            let failed = try await photosync("fetch", "--url", server.feedURL + "?api_key=" + Self.key, "--config", config)
            #expect(failed.status == 69, "\(failed)")
            let text = try String(contentsOfFile: log, encoding: .utf8)
            #expect(text.contains(" ERROR page 1: "), "\(text)")
            #expect(!text.contains(Self.key), "\(text)")
            let retried = try await photosync(
                "fetch", "--url", server.feedURL + "?api_key=" + Self.key, "--config", config, "--retries", "1", "--log-file", log)
            #expect(retried.status == 69 && retried.stderr.split(separator: "\n").count == 2, "a warning for the retry, then the error: \(retried)")
            let logged = try String(contentsOfFile: log, encoding: .utf8)
            #expect(logged.hasPrefix(text), "the second run appends")
            // What the second run logged: its start (with the URL, key redacted), the retry, the error.
            let second = String(logged.dropFirst(text.count))
            #expect(second.contains(" INFO fetch started: ") && second.contains(" NOTICE page 1: ") && second.contains("; retry 1 of 1 in "), "\(second)")
            #expect(!second.contains(Self.key), "\(second)")
            #expect(failed.stderr.split(separator: "\n").count == 1, "\(failed)")
        }
    }
}
