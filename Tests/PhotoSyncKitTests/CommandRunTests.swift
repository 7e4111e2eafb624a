import ArgumentParser
import Foundation
import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

/// Runs parsed commands against temporary catalogs and checks their exit statuses.
@Suite("Running commands", .removesTemporaryFiles, .onTestThreads)
struct CommandRunTests {
    @Test("an explicit --config that does not exist exits with 78")
    func missingConfig() throws {
        let directory = try makeTemporaryDirectory()
        var command = try PhotoSyncCommand.parseAsRoot(
            ["list", "--db", directory + "/c.sqlite", "--config", directory + "/missing.yaml"])
        #expect(throws: ExitCode(78)) { try command.run() }
    }

    @Test("a fetch while another holds the catalog exits with 75 at once")
    func fetchWhileLocked() throws {
        let directory = try makeTemporaryDirectory()
        let config = try writeTemporaryFile("config.yaml", "endpoint: file:///nowhere/\n")
        let database = directory + "/c.sqlite"
        var command = try PhotoSyncCommand.parseAsRoot(["--db", database, "--config", config, "fetch", "--quiet"])
        let held = try FetchLock.take(.file(database), wait: false) {}
        #expect(throws: ExitCode(75)) { try command.run() }
        withExtendedLifetime(held) {}
    }

    /// Issue 14, defect 2: `status` on a mistyped path created the catalog and its folders.
    @Test("read commands on a missing catalog exit 66 and create nothing", arguments: [["status"], ["list"], ["photographers"],
        ["delete", "1"], ["restore", "1"]])
    func missingCatalogIsNoInput(arguments: [String]) throws {
        let directory = try makeTemporaryDirectory()
        let config = try writeTemporaryFile("config.yaml", "")
        var command = try PhotoSyncCommand.parseAsRoot(arguments + ["--db", directory + "/a/b/c.sqlite", "--config", config])
        #expect(throws: ExitCode(66)) { try command.run() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test("library errors map to their sysexits status; other errors to 70")
    func errorStatuses() {
        #expect(throws: ExitCode(69)) { try reportingErrors { throw PhotoSyncError.network("down") } }
        #expect(throws: ExitCode(1)) { try reportingErrors { throw PhotoSyncError.notFound("no photo 9") } }
        #expect(throws: ExitCode(70)) { try reportingErrors { throw CocoaError(.fileReadUnknown) } }
    }

    @Test("error lines are one line and never show the API key")
    func oneLineRedacted() {
        #expect(
            oneLine("GET https://x/?api_key=s3cr3t&page=1 failed\nafter 3 retries", hiding: "s3cr3t")
                == "GET https://x/?api_key=REDACTED&page=1 failed after 3 retries")
        #expect(oneLine("plain", hiding: nil) == "plain")
        #expect(oneLine("key k, k.", hiding: "k") == "key [redacted], [redacted].")
    }

    @Test("a short key does not blank the inside of words")
    func shortKeyInsideWords() {
        #expect(oneLine("database is locked", hiding: "k") == "database is locked")
        #expect(oneLine("key k=1 knock", hiding: "k") == "key [redacted]=1 knock")
    }
}
