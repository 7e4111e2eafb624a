import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 22, defect 2: the log file says who wrote each line (`fetch[PID] catalog=PATH`), and
/// only commands that change the catalog write to the configured log file: a read-only command's
/// mistake (`show 999`, a typo'd `--db`) and `config` leave it alone.
@Suite("log lines say who wrote them", .onTestThreads)
struct LogAttributionTests {
    static var line: Regex<(Substring, Substring, Substring, Substring, Substring, Substring)> { #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z (\w+)\[(\d+)\] catalog=(\S+) (ERROR|WARNING|NOTICE|INFO|DEBUG) (.*)$/# }

    /// A config file naming `log` as `log_file`.
    static func config(in photosync: PhotoSync, log: String) throws -> String {
        let path = photosync.directory + "/config.yaml"
        try "log_file: \(log)\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func eachLineNamesItsCommandProcessAndCatalog() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages([FeedItem("1", by: "Ana Lima", title: "One"), FeedItem("2", by: "Bo Chen", title: "Two")], perPage: 2))
            let log = photosync.directory + "/fetch.log"
            let config = try Self.config(in: photosync, log: log)
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456", "--config", config)
            #expect(fetch.status == 0, "\(fetch)")
            let delete = try await photosync("delete", "2", "--config", config)
            #expect(delete.status == 0, "\(delete)")
            let missing = try await photosync("restore", "999", "--config", config)
            #expect(missing.status == 1, "\(missing)")

            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
            let parsed = lines.compactMap { $0.wholeMatch(of: Self.line) }
            #expect(parsed.count == lines.count && !lines.isEmpty, "every line is tagged: \(lines)")
            #expect(Set(parsed.map { String($0.output.1) }) == ["fetch", "delete", "restore"], "\(lines)")
            #expect(parsed.allSatisfy { $0.output.3 == photosync.db }, "\(lines)")
            #expect(Set(parsed.map { String($0.output.2) }).count == 3, "one process id per run: \(lines)")
            #expect(lines.contains { $0.contains(" restore[") && $0.contains(" ERROR ") }, "\(lines)")
        }
    }

    @Test func readingCommandsAndConfigLeaveTheConfiguredLogAlone() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages([FeedItem("1", by: "Ana Lima", title: "One")], perPage: 1))
            let log = photosync.directory + "/logs/fetch.log"
            let config = try Self.config(in: photosync, log: log)
            let configCommand = try await photosync("config", "--config", config)
            #expect(configCommand.status == 0, "\(configCommand)")
            #expect(!FileManager.default.fileExists(atPath: log), "plain config created the log file")
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456", "--config", config)
            #expect(fetch.status == 0, "\(fetch)")
            let before = try String(contentsOfFile: log, encoding: .utf8)
            for args in [["show", "999"], ["list", "--photographer", "Nobody"], ["status"], ["photographers"]] {
                let result = try await photosync.run(args + ["--config", config, "--db", photosync.db])
                #expect(result.status == 0 || result.status == 1, "\(args): \(result)")
            }
            let typo = try await photosync.run(["show", "1", "--config", config, "--db", photosync.directory + "/typo.sqlite"])
            #expect(typo.status == 66, "\(typo)")
            #expect(try String(contentsOfFile: log, encoding: .utf8) == before, "reading commands wrote to the cron log")

            let asked = photosync.directory + "/asked.log"
            let show = try await photosync("show", "999", "--log-file", asked)
            #expect(show.status == 1, "\(show)")
            let text = try String(contentsOfFile: asked, encoding: .utf8)
            #expect(text.contains(" show[") && text.contains(" ERROR not in the catalog"), "an explicit --log-file is honoured: \(text)")
        }
    }
}
