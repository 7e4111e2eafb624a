import ArgumentParser
import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

/// Long id lists skip argument-parser's quadratic array parsing (issue 24) and must parse to
/// exactly what argument-parser would make of them, or be left to it.
@Suite("Bulk photo ids", .onTestThreads)
struct BulkPhotoIDsTests {
    private let ids = (1...1_000).map { "5371986\($0)" }

    @Test("delete and restore with many ids: the same ids as argument-parser, options kept", arguments: [
        ["delete"], ["--db", "/tmp/c.sqlite", "delete", "--dry-run"], ["restore", "--quiet"],
    ])
    func sameAsArgumentParser(prefix: [String]) throws {
        let arguments = prefix + ids + ["--forget-only"].filter { _ in prefix.contains("delete") }
        let fast = try #require(BulkPhotoIDs.parse(arguments))
        let slow = try PhotoSyncCommand.parseAsRoot(arguments)
        if let fast = fast as? DeleteCommand, let slow = slow as? DeleteCommand {
            #expect(Set(fast.photoIDs) == Set(slow.photoIDs) && fast.photoIDs.count == slow.photoIDs.count)
            #expect((fast.forgetOnly, fast.dryRun, fast.globals.db) == (slow.forgetOnly, slow.dryRun, slow.globals.db))
        } else {
            let (fast, slow) = (try #require(fast as? RestoreCommand), try #require(slow as? RestoreCommand))
            #expect(Set(fast.photoIDs) == Set(slow.photoIDs) && fast.photoIDs.count == slow.photoIDs.count)
            #expect(fast.globals.quiet == slow.globals.quiet)
        }
    }

    @Test("a run's first word stays for argument-parser: it may be an option's value")
    func firstWordOfARunStays() {
        let (kept, setAside) = BulkPhotoIDs.split(["delete", "--photographer", "Ana"] + ids)
        #expect(kept == ["delete", "--photographer", "Ana"])
        #expect(setAside == ids)
    }

    @Test("short lists, other commands and invalid combinations are left to argument-parser", arguments: [
        ["delete", "1", "2"],
        ["list", "--photographer"] + (1...100).map(String.init),
        ["delete", "--photographer", "Ana"] + (1...100).map(String.init),
    ])
    func leftToArgumentParser(arguments: [String]) {
        #expect(BulkPhotoIDs.parse(arguments) == nil)
    }

    @Test("a subcommand name never joins a run")
    func subcommandNameBreaksARun() {
        let (kept, _) = BulkPhotoIDs.split(["quiet", "delete"] + ids)
        #expect(kept == ["quiet", "delete", ids[0]])
    }
}
