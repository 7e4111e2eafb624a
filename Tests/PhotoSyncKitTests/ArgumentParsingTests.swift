import ArgumentParser
import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

@Suite("Argument parsing", .onTestThreads)
struct ArgumentParsingTests {
    @Test(
        "global options reach the subcommand before or after its name",
        arguments: [
            ["--db", "/tmp/c.sqlite", "--config", "/tmp/p.yaml", "--quiet", "list"],
            ["list", "--db", "/tmp/c.sqlite", "--config", "/tmp/p.yaml", "--quiet"],
            ["--db", "/tmp/c.sqlite", "list", "--quiet", "--config", "/tmp/p.yaml"],
        ])
    func globalOptionsInEitherPosition(arguments: [String]) throws {
        let command = try PhotoSyncCommand.parseAsRoot(arguments)
        let list = try #require(command as? ListCommand)
        #expect(list.globals.db == "/tmp/c.sqlite")
        #expect(list.globals.config == "/tmp/p.yaml")
        #expect(list.globals.quiet)
        #expect(!list.globals.verbose)
    }

    @Test("--verbose before the subcommand is visible to the logging bootstrap", arguments: [
        ["--verbose", "fetch"], ["fetch", "--verbose"],
    ])
    func verboseInEitherPosition(arguments: [String]) throws {
        let command = try PhotoSyncCommand.parseAsRoot(arguments)
        let withGlobals = try #require(command as? any GlobalOptionsCommand)
        #expect(command is FetchCommand)
        #expect(withGlobals.globals.verbose)
    }

    @Test("fetch options parse into their properties")
    func fetchOptions() throws {
        let command = try PhotoSyncCommand.parseAsRoot([
            "fetch", "--url", "file:///srv/feed/", "--api-key", "k", "--pages", "2", "--per-page", "500",
            "--merge-policy", "store-trump", "--timeout", "2.5", "--retries", "0", "--dry-run", "--format", "json", "--wait",
        ])
        let fetch = try #require(command as? FetchCommand)
        #expect(fetch.url == "file:///srv/feed/")
        #expect(fetch.apiKey == "k")
        #expect(fetch.pages == 2)
        #expect(fetch.perPage == 500)
        #expect(fetch.mergePolicy == .storeTrump)
        #expect(fetch.transfer.timeout == 2.5)
        #expect(fetch.transfer.retries == 0)
        #expect(fetch.dryRun && fetch.wait)
        #expect(fetch.format == .json)
    }

    @Test("delete takes ids or a photographer")
    func deleteForms() throws {
        let byID = try #require(try PhotoSyncCommand.parseAsRoot(["delete", "1", "2"]) as? DeleteCommand)
        #expect(byID.photoIDs == ["1", "2"])
        #expect(byID.photographer == nil)
        let byName = try #require(try PhotoSyncCommand.parseAsRoot(["delete", "--photographer", "Ana Lima"]) as? DeleteCommand)
        #expect(byName.photoIDs.isEmpty)
        #expect(byName.photographer == "Ana Lima")
    }

    @Test(
        "bad usage exits with 64",
        arguments: [
            ["fetch", "--pages", "0"], ["fetch", "--per-page", "0"], ["fetch", "--per-page", "501"],
            ["fetch", "--timeout", "0"], ["fetch", "--retries", "-1"], ["fetch", "--retries", "11"],
            ["fetch", "--url", "ftp://example.com/"], ["fetch", "--merge-policy", "newest"],
            ["delete"], ["delete", "1", "--photographer", "Ana Lima"],
            ["list", "--format", "xml"], ["list", "--limit", "0"], ["--verbose", "--quiet", "status"],
        ])
    func usageErrors(arguments: [String]) {
        let error = #expect(throws: (any Error).self) { try PhotoSyncCommand.parseAsRoot(arguments) }
        #expect(error.map(PhotoSyncCommand.exitCode(for:)) == ExitCode(64))
    }

    @Test("boundary values are accepted", arguments: [
        ["fetch", "--per-page", "1"], ["fetch", "--per-page", "500"], ["fetch", "--retries", "0"],
        ["fetch", "--retries", "10"], ["fetch", "--pages", "1"], ["fetch", "--timeout", "0.5"],
    ])
    func boundaries(arguments: [String]) throws {
        #expect(try PhotoSyncCommand.parseAsRoot(arguments) is FetchCommand)
    }
}
