import Foundation
import GRDB
import Glibc
import PhotoSyncTestSupport
import Testing

/// The binary under resource limits set by the shell (`ulimit -v`, `ulimit -n`, `ulimit -f`), as a
/// cron job or a service manager sets them. Whatever the limit, the process ends by itself (it
/// used to hang in libdispatch, ignoring signals and holding the lock, or die of SIGSEGV, SIGILL or
/// SIGXFSZ) with one stderr line and a documented status, the lock freed, the run recorded as
/// failed (or shown abandoned) and only whole pages in the catalog.
@Suite("resource limits", .onTestThreads)
struct ResourceLimitTests {
    /// `pages` pages of `perPage` photos with titles of `titleBytes`, ids "P-N" for page P.
    static func feed(pages: Int, perPage: Int, titleBytes: Int = 40) -> (server: ScriptedServer, ids: [[String]]) {
        let ids = (1...pages).map { page in (1...perPage).map { "\(page)\(String(format: "%04d", $0))" } }
        let bodies = ids.enumerated().map { index, pageIDs in
            FeedJSON.page(index + 1, of: pages, perPage: perPage, total: pages * perPage, photos: pageIDs.map { id in
                FeedJSON.photo(id, owner: "Owner \(id.suffix(2))", title: id + String(repeating: "t", count: titleBytes))
            })
        }
        let server = try! ScriptedServer { page, _ in (1...pages).contains(page) ? .json(bodies[page - 1]) : .http(404) }
        return (server, ids)
    }

    /// Checks what must hold after any run under a limit: it ended by itself, with status 0 or
    /// `status` and then one line containing `words`; the lock is free (a status taken after it
    /// shows no run still running); the catalog, if any, holds whole pages from page 1 on.
    /// Returns the pages saved and whether the run failed.
    @discardableResult
    func expectClean(
        _ outcome: (result: Sandbox.Result, hung: Bool), in sandbox: Sandbox, ids: [[String]], status: Int32, words: String,
        _ context: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (pages: Int, failed: Bool) {
        let result = outcome.result
        #expect(!outcome.hung, "\(context): still running after the test's timeout, killed: \(result)", sourceLocation: sourceLocation)
        #expect(!result.signalled, "\(context): \(result)", sourceLocation: sourceLocation)
        #expect(result.status == 0 || result.status == status, "\(context): \(result)", sourceLocation: sourceLocation)
        // A run that died while creating the catalog leaves no file, an empty one, or an SQLite
        // file without tables (which the next command sets up): no page either way.
        guard FileManager.default.fileExists(atPath: sandbox.db), (sandbox.fileBytes()?.count ?? 0) > 0, try Self.hasTables(sandbox.db) else {
            #expect(result.status != 0, "\(context): a successful fetch leaves a catalog", sourceLocation: sourceLocation)
            return (0, true)
        }
        let pages = try CatalogInspector(path: sandbox.db).expectConsistent(pages: ids, context, sourceLocation: sourceLocation)
        let stored = try await sandbox.ids()
        #expect(stored == Set(ids.prefix(pages).joined()), "\(context): pages 1 to \(pages) only", sourceLocation: sourceLocation)
        let runs = try await sandbox("status", "--format", "json").object()["runs"] as? [[String: Any]] ?? []
        #expect(runs.count <= 1, "\(context): \(runs)", sourceLocation: sourceLocation)
        guard result.status != 0 else {
            #expect(runs.first?["outcome"] as? String == "succeeded", "\(context): \(runs)", sourceLocation: sourceLocation)
            return (pages, false)
        }
        // An allocation that fails inside the Swift runtime, or GnuTLS's initialization when libcurl
        // loads (through libldap), makes that library print its own line first (see README).
        let lines = result.stderrLines.filter {
            !$0.hasPrefix("Fatal error: failed to allocate ") && !$0.hasPrefix("Error in GnuTLS initialization")
        }
        #expect(lines.count == 1 && lines[0].hasPrefix("photosync: ") && lines[0].contains(words) && result.stderrLines.last == lines.last,
                "\(context): one line saying \(words): \(result)", sourceLocation: sourceLocation)
        if let run = runs.first {
            #expect(["failed", "abandoned"].contains(run["outcome"] as? String ?? ""), "\(context): \(runs)", sourceLocation: sourceLocation)
        }
        return (pages, true)
    }

    /// Whether the SQLite file at `path` holds the catalog's tables.
    static func hasTables(_ path: String) throws -> Bool {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'Photo'") ?? 0 } > 0
    }

    /// The lock is free and the catalog usable: a fetch with no limit completes it.
    func expectNextFetchWorks(_ sandbox: Sandbox, _ server: ScriptedServer, ids: [[String]], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let next = try await sandbox("fetch", "--url", server.url, "--api-key", "k", "--per-page", "\(ids[0].count)", "--quiet")
        #expect(next.status == 0, "the following fetch: \(next)", sourceLocation: sourceLocation)
        #expect(try await sandbox.ids() == Set(ids.joined()), sourceLocation: sourceLocation)
    }

    // MARK: - ulimit -v

    /// The lowest `ulimit -v` (KiB, to 4 MiB) at which the dynamic loader can start the binary at all
    /// (below it ld.so fails before photosync runs, with its own message and status 127).
    func lowestLoadableLimit(_ sandbox: Sandbox) async throws -> Int {
        var (low, high) = (16 * 1024, 1024 * 1024)
        while high - low > 4 * 1024 {
            let middle = (low + high) / 2
            let outcome = try await sandbox.runLimited("ulimit -v \(middle)", ["--version"], within: 60)
            if outcome.hung || outcome.result.status == 127 { low = middle } else { high = middle }
        }
        return high
    }

    /// From the lowest limit the loader accepts up, in 2 MiB steps, until a fetch succeeds: each
    /// run ends by itself with 71 and "out of memory" (or succeeds), and the sweep meets failures
    /// both before any page was saved and after some were. `list` under each limit ends too.
    @Test func addressSpaceLimitsEndWithOneLineAndStatus71() async throws {
        let (server, ids) = Self.feed(pages: 4, perPage: 200, titleBytes: 16_000)
        defer { server.stop() }
        let start = try await withSandbox { try await lowestLoadableLimit($0) }
        var (failedAtStart, failedMidway, succeeded) = (0, 0, false)
        var limit = start
        while !succeeded && limit <= start + 512 * 1024 {
            try await withSandbox { sandbox in
                let outcome = try await sandbox.runLimited(
                    "ulimit -v \(limit)", ["fetch", "--db", sandbox.db, "--url", server.url, "--api-key", "k", "--per-page", "200"])
                let (pages, failed) = try await expectClean(outcome, in: sandbox, ids: ids, status: 71, words: "out of memory", "ulimit -v \(limit)")
                if failed && pages == 0 { failedAtStart += 1 }
                if failed && pages > 0 { failedMidway += 1 }
                succeeded = !failed
                if failed { try await expectNextFetchWorks(sandbox, server, ids: ids) }
                // A reading command under the same limit ends by itself too.
                let list = try await sandbox.runLimited("ulimit -v \(limit)", ["list", "--db", sandbox.db, "--format", "csv"])
                #expect(!list.hung && !list.result.signalled && [0, 71].contains(list.result.status), "list, ulimit -v \(limit): \(list.result)")
                if list.result.status == 0 { #expect(list.result.stdout.split(whereSeparator: \.isNewline).count == ids.joined().count + 1, "list, ulimit -v \(limit)") }
                if list.result.status == 71 { #expect(list.result.stderr.contains("photosync: out of memory"), "list, ulimit -v \(limit): \(list.result)") }
            }
            limit += 2 * 1024
        }
        #expect(succeeded, "no fetch succeeded up to ulimit -v \(limit) KiB")
        #expect(failedAtStart > 0, "the sweep from \(start) KiB met no failure before the first page")
        #expect(failedMidway > 0, "the sweep from \(start) KiB met no failure after a saved page")
    }

    // MARK: - ulimit -n

    /// Too few descriptors stop a command before it opens anything: one line, 74, an existing
    /// catalog byte for byte (libdispatch died of SIGILL, SQLite said "unable to open database file",
    /// connections failed as network errors). A fetch needs 24 free, `list` and `status` 5; with
    /// enough, they run.
    @Test func descriptorLimitsEndWithOneLineAndStatus74() async throws {
        let (server, ids) = Self.feed(pages: 3, perPage: 50)
        defer { server.stop() }
        try await withSandbox { sandbox in
            #expect(try await sandbox("fetch", "--url", server.url, "--api-key", "k", "--per-page", "50", "--pages", "1").status == 0)
            let before = sandbox.fileBytes()
            let fetch = ["fetch", "--url", server.url, "--api-key", "k", "--per-page", "50"]
            let tooFew = [5, 8, 10, 12, 14, 16, 20, 26].map { ($0, fetch) } + [4, 5, 7].flatMap { [($0, ["list"]), ($0, ["status"])] }
            for (descriptors, command) in tooFew {
                let outcome = try await sandbox.runLimited("ulimit -n \(descriptors)", command + ["--db", sandbox.db])
                let result = outcome.result
                #expect(!outcome.hung && !result.signalled && result.status == 74, "ulimit -n \(descriptors) \(command[0]): \(result)")
                #expect(result.stderrLines.count == 1 && result.stderr.contains("too few file descriptors")
                        && result.stderr.contains("ulimit -n"), "ulimit -n \(descriptors) \(command[0]): \(result)")
                #expect(sandbox.fileBytes() == before, "ulimit -n \(descriptors) \(command[0]): the catalog changed")
            }
            for command in [["list"], ["status"]] {
                let enough = try await sandbox.runLimited("ulimit -n 8", command + ["--db", sandbox.db])
                #expect(enough.result.status == 0 && !enough.hung, "ulimit -n 8 \(command[0]): \(enough.result)")
            }
            let enough = try await sandbox.runLimited("ulimit -n 64", ["fetch", "--db", sandbox.db, "--url", server.url, "--api-key", "k", "--per-page", "50", "--full"])
            #expect(enough.result.status == 0 && !enough.hung, "ulimit -n 64: \(enough.result)")
            #expect(try await sandbox.ids() == Set(ids.joined()))
        }
    }

    // MARK: - disk full, no free inodes, ulimit -f

    /// A tmpfs of `options` mounted in the sandbox (this suite runs as root, like CI); a failure to
    /// mount fails the test rather than skipping it.
    func withSmallFileSystem(_ options: String, _ body: (Sandbox, String) async throws -> Void) async throws {
        try await withSandbox { sandbox in
            let folder = sandbox.directory + "/small"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let mount = try await sandbox.runLimited("", [], command: ["/bin/mount", "-t", "tmpfs", "-o", options, "tmpfs", folder])
            try #require(mount.result.status == 0, "mounting a small tmpfs needs root (CI runs as root): \(mount.result)")
            defer { _ = try? runToolSync("/bin/umount", [folder]) }
            try await body(sandbox, folder + "/catalog.sqlite")
        }
    }

    /// The file system fills up on page 3 or later: one line "disk full writing PATH", 74, the
    /// pages before kept whole, the run recorded as failed with the same words.
    @Test func diskFullDuringAFetchSaysSo() async throws {
        let (server, ids) = Self.feed(pages: 30, perPage: 100, titleBytes: 400)
        defer { server.stop() }
        try await withSmallFileSystem("size=1m,nr_inodes=64") { sandbox, db in
            let result = try await sandbox.run(["fetch", "--db", db, "--url", server.url, "--api-key", "k", "--per-page", "100"])
            #expect(result.status == 74, "\(result)")
            #expect(result.stderr == "photosync: disk full writing \(db): free some space on its file system, then run again\n", "\(result)")
            let pages = try CatalogInspector(path: db).expectConsistent(pages: ids, "disk full")
            #expect(pages >= 2, "pages saved before the disk filled up: \(pages)")
            let runs = try await sandbox.run(["status", "--db", db, "--format", "json"]).object()["runs"] as? [[String: Any]] ?? []
            #expect(runs.first?["outcome"] as? String == "failed" && (runs.first?["error"] as? String)?.contains("disk full") == true, "\(runs)")
        }
    }

    /// No inode left for the catalog (or its -wal/-shm): "no free inodes", 74, never SQLite's
    /// "cannot open the file".
    @Test(arguments: ["size=1m,nr_inodes=2", "size=1m,nr_inodes=3"])
    func noFreeInodesSaysSo(options: String) async throws {
        let (server, _) = Self.feed(pages: 1, perPage: 10)
        defer { server.stop() }
        try await withSmallFileSystem(options) { sandbox, db in
            let result = try await sandbox.run(["fetch", "--db", db, "--url", server.url, "--api-key", "k", "--per-page", "10"])
            #expect(result.status == 74, "\(result)")
            #expect(result.stderrLines.count == 1 && result.stderr.contains("no free inodes") && result.stderr.contains(db), "\(result)")
        }
    }

    /// Past `ulimit -f` a write fails (SIGXFSZ used to kill the process, status 153): one line
    /// naming the limit, 74, earlier pages kept whole, the run recorded as failed.
    @Test func fileSizeLimitSaysSo() async throws {
        let (server, ids) = Self.feed(pages: 30, perPage: 100, titleBytes: 400)
        defer { server.stop() }
        try await withSandbox { sandbox in
            // dash counts ulimit -f in blocks of 512 bytes: 1 MiB.
            let outcome = try await sandbox.runLimited("ulimit -f 2048", ["fetch", "--db", sandbox.db, "--url", server.url, "--api-key", "k", "--per-page", "100"])
            #expect(outcome.result.status == 74, "\(outcome.result)")
            let (pages, _) = try await expectClean(outcome, in: sandbox, ids: ids, status: 74, words: "file size limit reached writing \(sandbox.db)", "ulimit -f")
            #expect(pages >= 1, "pages saved before the limit: \(pages)")
            #expect(outcome.result.stderr.contains("ulimit -f"), "\(outcome.result)")
        }
    }
}

extension BinarySandbox {
    /// Runs `photosync args` (or `command`) under `/bin/sh -c 'LIMITS; exec ...'`, killing it after
    /// `seconds` if it has not ended (then `hung` is true).
    func runLimited(_ limits: String, _ args: [String], command: [String]? = nil, within seconds: Double = 180) async throws -> (result: Result, hung: Bool) {
        let words = (command ?? [Self.binary] + args).map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        let running = try start(command: ["/bin/sh", "-c", (limits.isEmpty ? "" : limits + "; ") + "exec " + words.joined(separator: " ")])
        let ended = await eventually(within: seconds) { !running.process.isRunning }
        if !ended { running.signal(SIGKILL) }
        return (await running.finish(), !ended)
    }
}

/// Runs a tool and waits (for clean-ups in `defer`, which cannot await).
@discardableResult
func runToolSync(_ path: String, _ args: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = args
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.runOneAtATime()
    process.waitUntilExit()
    return process.terminationStatus
}
