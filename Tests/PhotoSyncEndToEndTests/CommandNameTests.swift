import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 22, defects 5 and 6: a typo'd subcommand gets a suggestion and status 64 (`help` of an
/// unknown one too), and no help text shows a line-continuation backslash.
@Suite("command names and help texts", .onTestThreads)
struct CommandNameTests {
    static let commands = ["fetch", "list", "show", "photographers", "delete", "restore", "download", "verify", "status", "migrate", "config"]

    @Test(arguments: [
        (["fecth"], "unknown command 'fecth'; did you mean 'fetch'?"),
        (["--db", "x.sqlite", "lsit", "--limit", "1"], "unknown command 'lsit'; did you mean 'list'?"),
        (["help", "fecth"], "unknown command 'fecth'; did you mean 'fetch'?"),
        (["photograph"], "unknown command 'photograph'; did you mean 'photographers'?"),
        (["zzzzzz"], "unknown command 'zzzzzz' (see 'photosync --help')"),
    ])
    func aTypoedCommandIsAUsageErrorWithASuggestion(_ args: [String], _ expected: String) async throws {
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        let result = try await photosync.run(args)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines.count == 1 && result.stderr.contains(expected), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    @Test func helpOfAKnownCommandStillWorks() async throws {
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        let help = try await photosync.run(["help", "fetch"])
        #expect(help.status == 0 && help.stdout.contains("photosync fetch"), "\(help)")
        let version = try await photosync.run(["--version"])
        #expect(version.status == 0, "\(version)")
    }

    @Test(arguments: [[]] + commands.map { [$0] })
    func noHelpTextShowsALineContinuationBackslash(_ command: [String]) async throws {
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        let help = try await photosync.run(command + ["--help"])
        #expect(help.status == 0, "\(help)")
        // A `\\` at the end of a source line in a """ string is a backslash followed by a newline.
        let artifacts = help.stdout.split(separator: "\n").filter { $0.contains(/\\(\s|$)/) }
        #expect(artifacts.isEmpty, "\(command): \(artifacts)")
    }
}
