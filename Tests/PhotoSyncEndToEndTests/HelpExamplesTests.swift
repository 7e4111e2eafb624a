import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 14, defect 8: every example in `--help` and in the README runs as written (a `file://`
/// example pointed at a folder and failed). Each command's examples run in order, through bash,
/// on a catalog fetched from a local feed (PHOTOSYNC_URL, PHOTOSYNC_API_KEY and PHOTOSYNC_DB set
/// as a user would), from a folder holding the project's `Fixtures`.
@Suite("help and README examples", .onTestThreads)
struct HelpExamplesTests {
    static let commands = [[], ["fetch"], ["list"], ["photographers"], ["delete"], ["restore"], ["excluded"], ["status"], ["migrate"]]

    /// What a command's examples assume was done before (restore undoes deletes).
    static let setup: [String: [String]] = [
        "restore": [#"photosync delete --photographer "Ana Lima""#, "photosync delete 53719862871"],
        "excluded": ["photosync delete 53719862871"],
    ]

    static let items = [
        FeedItem("53719862871", by: "Bo Chen", title: "Harbour"), FeedItem("53719862872", by: "Bo Chen", title: "Pier"),
        FeedItem("53719862873", by: "Ana Lima", title: "Dunes"), FeedItem("53719862874", by: "Ana Lima", title: "Cliffs"),
        FeedItem("53719862875", by: "Ana Lima", title: "Shore"), FeedItem("53719862876", by: "Cy Diaz", title: "Fog"),
    ]

    @Test(arguments: commands)
    func helpExamplesRunAsWritten(_ command: [String]) async throws {
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        let help = try await photosync.run(command + ["--help"])
        let examples = Self.examples(inHelp: help.stdout)
        #expect(!examples.isEmpty, "\(command) has examples")
        try await Self.runInOrder(Self.setup[command.first ?? ""] ?? [], examples, in: photosync)
    }

    @Test func readmeExamplesRunAsWritten() async throws {
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        let readme = try String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)
        let commands = try String(contentsOfFile: packageRoot + "/docs/commands.md", encoding: .utf8)
        let examples = Self.examples(inReadme: readme) + Self.examples(inReadme: commands)
        #expect(examples.count >= 5, "\(examples)")
        #expect(examples.contains { $0.hasPrefix("photosync migrate --to") }, "docs/commands.md's examples run too")
        try await Self.runInOrder([], examples, in: photosync)
    }

    /// Lines starting with `photosync ` after an "Example" heading in help output.
    static func examples(inHelp help: String) -> [String] {
        var inExamples = false
        var found: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("Example") { inExamples = true; continue }
            if inExamples && trimmed.hasPrefix("photosync ") { found.append(trimmed) } else if inExamples && !trimmed.isEmpty { inExamples = false }
        }
        return found
    }

    /// `$ photosync ...` lines in the README's ``` blocks, without the prompt.
    static func examples(inReadme readme: String) -> [String] {
        var inBlock = false
        var found: [String] = []
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inBlock.toggle(); continue }
            if inBlock && line.hasPrefix("$ photosync ") { found.append(String(line.dropFirst(2))) }
        }
        return found
    }

    /// Fetches the feed into the catalog (and `~/photos.sqlite`, which an example names), runs
    /// `setup`, then each example; every one must exit 0.
    static func runInOrder(_ setup: [String], _ examples: [String], in photosync: PhotoSync) async throws {
        try await TestHTTPServer.withRunning { server in
            server.serveFeed(Feed.pages(items, perPage: 2))
            let work = photosync.directory + "/work"
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: work + "/Fixtures", withDestinationPath: packageRoot + "/Fixtures")
            let binaries = (PhotoSync.binary as NSString).deletingLastPathComponent
            // `postgresql:///photos` in an example reaches the test server through libpq's environment,
            // in a schema of its own, as it would reach a user's local server.
            let postgres = try await PostgresTestCatalog.made(database: "photos")
            let environment = postgres.libpqEnvironment.merging([
                "PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                "PHOTOSYNC_URL": server.feedURL, "PHOTOSYNC_API_KEY": "example-key", "PHOTOSYNC_DB": photosync.db,
            ].merging(PhotoSync.inProcessServerEnvironment) { $1 }) { $1 }
            let prepare = ["photosync fetch --quiet", "photosync --db ~/photos.sqlite fetch --quiet"] + setup
            for line in prepare + examples {
                let result = try await photosync.run(command: ["/bin/bash", "-c", "cd \"$0\" && " + line, work], environment: environment)
                #expect(result.status == 0, "\(line): \(result)")
            }
            await postgres.dropped()
        }
    }
}
