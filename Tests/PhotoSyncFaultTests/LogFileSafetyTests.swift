import Foundation
import Glibc
import PhotoSyncTestSupport
import Testing

/// `--log-file` for a root cron job that logs into a folder others can write (issue 21): the log
/// is opened as logrotate opens its own, never blocking and never through another name; a log
/// that cannot be written is said once, and a fetch exits 74.
@Suite("the log file, opened safely", .onTestThreads)
struct LogFileSafetyTests {
    static let page = FeedJSON.page(1, of: 1, perPage: 2, total: 2, photos: [FeedJSON.photo("1"), FeedJSON.photo("2")])

    /// Every command given `log` exits 78 with one line naming it, leaves the catalog as it was,
    /// and does not hang (a FIFO without a reader blocked `open` forever, `--max-time` or not).
    static func expectRefused(_ log: String, _ sandbox: Sandbox, _ server: TestHTTPServer, words: String) async throws {
        let commands = [["fetch", "--url", server.feedURL, "--api-key", "k", "--max-time", "3"], ["list"], ["status"]]
        for command in commands {
            let before = sandbox.fileBytes()
            let outcome = try await sandbox.runLimited("", command + ["--db", sandbox.db, "--log-file", log], within: 60)
            #expect(!outcome.hung, "\(command[0]) with \(log) hung")
            #expect(outcome.result.status == 78, "\(command[0]): \(outcome.result)")
            #expect(outcome.result.stderrLines.count == 1 && outcome.result.stderr.contains(log) && outcome.result.stderr.contains(words),
                    "\(command[0]): \(outcome.result)")
            #expect(sandbox.fileBytes() == before, "\(command[0]) changed the catalog")
        }
    }

    @Test func aFIFOIsRefusedWithoutBlocking() async throws {
        try await withServerAndSandbox { server, sandbox in
            server.serve([1: Self.page])
            let fifo = sandbox.directory + "/f.log"
            #expect(mkfifo(fifo, 0o600) == 0)
            try await Self.expectRefused(fifo, sandbox, server, words: "not a regular file")
            // With a reader waiting on it the open succeeds: the file type still refuses it.
            let reader = open(fifo, O_RDONLY | O_NONBLOCK)
            defer { close(reader) }
            try await Self.expectRefused(fifo, sandbox, server, words: "not a regular file")
        }
    }

    @Test func aSymlinkIsNeverFollowedNorItsTargetCreated() async throws {
        try await withServerAndSandbox { server, sandbox in
            server.serve([1: Self.page])
            let precious = sandbox.directory + "/precious.txt"
            try "keep me\n".write(toFile: precious, atomically: true, encoding: .utf8)
            let link = sandbox.directory + "/link.log"
            #expect(symlink(precious, link) == 0)
            try await Self.expectRefused(link, sandbox, server, words: "symbolic link")
            #expect(try String(contentsOfFile: precious, encoding: .utf8) == "keep me\n")

            let dangling = sandbox.directory + "/dangling.log"
            let target = sandbox.directory + "/created-by-photosync.txt"
            #expect(symlink(target, dangling) == 0)
            try await Self.expectRefused(dangling, sandbox, server, words: "symbolic link")
            #expect(!FileManager.default.fileExists(atPath: target), "a dangling symlink's target was created")
        }
    }

    @Test func aHardLinkedLogIsRefused() async throws {
        try await withServerAndSandbox { server, sandbox in
            server.serve([1: Self.page])
            let precious = sandbox.directory + "/precious.txt"
            try "keep me\n".write(toFile: precious, atomically: true, encoding: .utf8)
            let log = sandbox.directory + "/hard.log"
            #expect(link(precious, log) == 0)
            try await Self.expectRefused(log, sandbox, server, words: "hard links")
            #expect(try String(contentsOfFile: precious, encoding: .utf8) == "keep me\n")
        }
    }

    /// As root (CI runs as root), a log owned by another user is refused, like sudo's and
    /// logrotate's; a device such as /dev/full is not a regular file.
    @Test func anotherUsersLogAndADeviceAreRefused() async throws {
        try #require(geteuid() == 0, "this test runs as root, as CI does")
        try await withServerAndSandbox { server, sandbox in
            server.serve([1: Self.page])
            let log = sandbox.directory + "/nobody.log"
            try "".write(toFile: log, atomically: true, encoding: .utf8)
            #expect(chown(log, 65534, 65534) == 0)
            try await Self.expectRefused(log, sandbox, server, words: "owned by another user")
            #expect(try String(contentsOfFile: log, encoding: .utf8) == "")
            try await Self.expectRefused("/dev/full", sandbox, server, words: "not a regular file")
        }
    }

    /// The log's file system fills up: one warning on stderr (not one per line), the fetch's
    /// pages are saved, and the fetch exits 74 so cron hears of it.
    @Test func aLogThatCannotBeWrittenIsSaidOnceAndAFetchExits74() async throws {
        try #require(geteuid() == 0, "mounting a small tmpfs needs root (CI runs as root)")
        try await withServerAndSandbox { server, sandbox in
            server.serve([1: Self.page])
            let folder = sandbox.directory + "/full"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let mount = try await sandbox.runLimited("", [], command: ["/bin/mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", folder])
            try #require(mount.result.status == 0, "\(mount.result)")
            defer { _ = try? runToolSync("/bin/umount", [folder]) }
            let log = folder + "/fetch.log"
            let filler = folder + "/filler"
            _ = try? Data(count: 1 << 20).write(to: URL(fileURLWithPath: filler))  // fills the 64 KiB (fails once full)
            FileManager.default.createFile(atPath: log, contents: nil)
            let fetch = try await sandbox.run(["fetch", "--db", sandbox.db, "--url", server.feedURL, "--api-key", "k", "--log-file", log, "--verbose"])
            #expect(fetch.status == 74, "\(fetch)")
            let warnings = fetch.stderrLines.filter { $0.contains("cannot write the log file") }
            #expect(warnings.count == 1 && warnings.first?.contains(log) == true, "\(fetch)")
            #expect(try await sandbox.ids() == ["1", "2"], "the pages were saved")
        }
    }
}
