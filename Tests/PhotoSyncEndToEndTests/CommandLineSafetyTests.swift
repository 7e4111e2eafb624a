import Foundation
import Glibc
import PhotoSyncTestSupport
import Testing

/// Issue 14's defects, through the built binary: untrusted text, missing catalogs, stdout write
/// errors, secrets, paths and modes, byte-order marks and hostile numbers.
@Suite("command line safety (issue 14)", .onTestThreads)
struct CommandLineSafetyTests {
    static let red = "\u{1B}[31mred\u{1B}[0m title"
    static let bidiName = "Ana \u{202E}amiL\u{2069}\u{7}"

    /// Defect 1: no raw control character in table, text or CSV output, nor on stderr.
    @Test func feedTextCannotDriveTheTerminal() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages([FeedItem("1", by: Self.bidiName, title: Self.red + "\ttab\nline")], perPage: 1))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k").status == 0)
            let outputs = [
                try await photosync("list"), try await photosync("list", "--format", "csv"), try await photosync("photographers"),
                try await photosync("photographers", "--format", "csv"), try await photosync("delete", "--photographer", Self.bidiName, "--dry-run"),
                try await photosync("delete", "--photographer", "\u{1B}]0;pwned\u{7}"),
            ]
            for output in outputs {
                let isCSV = output.stdout.hasPrefix("id,") || output.stdout.hasPrefix("name,")
                let controls = (output.stdout + output.stderr).unicodeScalars.filter { scalar in
                    let value = scalar.value
                    let allowed: Set<UInt32> = isCSV ? [0x09, 0x0A, 0x0D] : [0x0A, 0x0D]
                    return !allowed.contains(value) && (value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
                        || (0x2066...0x2069).contains(value))
                }
                #expect(controls.isEmpty, "\(output)")
            }
            #expect(outputs[0].stdout.contains(#"\u{1B}[31mred\u{1B}[0m title\u{9}tab\u{A}line"#), "\(outputs[0])")
            #expect(outputs[0].stdout.split(separator: "\n").count == 2, "one header, one row: \(outputs[0])")
            #expect(outputs[1].stdout.contains("\"" + #"\u{1B}[31mred\u{1B}[0m title"# + "\ttab\nline\""), "\(outputs[1])")
            #expect(outputs[2].stdout.contains(#"Ana \u{202E}amiL\u{2069}\u{7}"#), "\(outputs[2])")
            #expect(outputs[4].stdout.contains(#"would remove photographer Ana \u{202E}amiL"#), "\(outputs[4])")
            #expect(outputs[5].status == 1 && outputs[5].stderr.contains(#"\u{1B}]0;pwned\u{7}"#), "\(outputs[5])")
            let json = try jsonArray(try await photosync("list", "--format", "json"))
            #expect(json.first?["title"] as? String == Self.red + "\ttab\nline")
            #expect(json.first?["photographer"] as? String == Self.bidiName)
        }
    }

    /// Defect 2: reading commands on a path with no catalog exit 66 and create nothing.
    @Test(arguments: [["list"], ["photographers"], ["status"], ["list", "--format", "json"], ["show", "1"], ["show", "1", "--format", "json"]])
    func readingNoCatalogExits66CreatingNothing(_ command: [String]) async throws {
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        let path = photosync.directory + "/typo/dir/catalog.sqlite"
        let result = try await photosync.run(command + ["--db", path])
        #expect(result.status == 66, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "photosync: no catalog at \(path) (run photosync fetch first)\n")
        #expect(!FileManager.default.fileExists(atPath: photosync.directory + "/typo"))
    }

    /// Defect 10 (part): a catalog path that is a device, a folder or a FIFO is refused (74) and
    /// nothing is created next to it.
    @Test(arguments: [["fetch", "--url", "file:///nowhere.json"], ["list"], ["status"], ["delete", "1"]])
    func aCatalogMustBeARegularFile(_ command: [String]) async throws {
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        let folder = photosync.directory + "/folder.sqlite"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for path in ["/dev/null", folder] {
            let result = try await photosync.run(command + ["--db", path])
            #expect(result.status == 74, "\(path): \(result)")
            #expect(result.stderr == "photosync: \(path) is not a regular file; give the path of a catalog file (or a new one)\n")
        }
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal") && !FileManager.default.fileExists(atPath: "/dev/null-wal"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    /// Defect 3: a failed write on stdout exits 74 with one line.
    @Test func writingToAFullDeviceExits74() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages([FeedItem("1", by: "Ana Lima", title: "One")], perPage: 1))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k").status == 0)
            let commands = [
                ["list", "--format", "csv"], ["list", "--format", "json"], ["list"], ["photographers"], ["status"],
                ["status", "--format", "json"], ["delete", "1"],
                ["fetch", "--url", server.feedURL, "--api-key", "k", "--format", "json", "--full"],
            ]
            for command in commands {
                let result = try await photosync.run(["/bin/sh", "-c", "exec \"$0\" \"$@\" > /dev/full"] + [PhotoSync.binary] + command
                    + ["--db", photosync.db], direct: true)
                #expect(result.status == 74, "\(command): \(result)")
                #expect(result.stderr == "photosync: cannot write to standard output: No space left on device\n", "\(command): \(result)")
            }
        }
    }

    /// Defect 3: a reader that goes away ends the command quietly (141, as SIGPIPE would).
    @Test func aClosedPipeEndsQuietly() async throws {
        try await withSandbox { photosync, server in
            let items = (1...3000).map { FeedItem("\($0)", by: "Ana Lima", title: "Photo number \($0) with a long enough title") }
            server.serveFeed(Feed.pages(items, perPage: 500))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "500").status == 0)
            let script = "\"$0\" list --db \"$1\" | head -c 10 > /dev/null; echo \"status ${PIPESTATUS[0]}\""
            let result = try await photosync.run(["/bin/bash", "-c", script, PhotoSync.binary, photosync.db], direct: true)
            #expect(result.stdout == "status 141\n", "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
        }
    }

    /// Defect 4 (a): an error body echoing the key reached the run record, and `status` printed it.
    /// The documented statuses: 77 for the API's refusal of the key, 65 for a body that is no feed.
    /// The catalog is scanned whole: a SQLite file with its -wal and -shm, every table of a
    /// PostgreSQL catalog.
    @Test(arguments: [
        (TestResponse.text(#"{"stat":"fail","code":100,"message":"Invalid API Key: S3cretKey0123456789 (Key not found)"}"#), Int32(77)),
        (TestResponse.text("S3cretKey0123456789 is not a valid key"), Int32(65)),
    ], CatalogKind.allCases)
    func anEchoedKeyNeverReachesTheCatalogOrStatus(_ expected: (response: TestResponse, exitStatus: Int32), _ kind: CatalogKind) async throws {
        let (response, exitStatus) = expected
        let key = "S3cretKey0123456789"
        try await withSandbox(kind) { photosync, server in
            server.route(Feed.path, response)
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", key, "--retries", "0")
            #expect(fetch.status == exitStatus, "\(fetch)")
            #expect(!fetch.stderr.contains(key), "\(fetch)")
            for format in ["text", "json"] {
                let status = try await photosync("status", "--format", format)
                #expect(status.status == 0 && !status.stdout.contains(key) && !status.stdout.contains("S3cretKey0"), "\(status)")
            }
            let run = try #require((try jsonObject(try await photosync("status", "--format", "json"))["runs"] as? [[String: Any]])?.first)
            #expect((run["error"] as? String)?.contains("[redacted]") == true, "the error is still recorded: \(run)")
            let stored = try photosync.storedBytes()
            #expect(kind == .postgres ? stored.count == 1 : stored["catalog"] != nil, "\(stored.keys)")
            for (name, bytes) in stored {
                #expect(bytes.range(of: Data(key.utf8)) == nil, "\(name) holds the key")
            }
            if kind == .postgres {
                let dump = String(decoding: stored.values.first ?? Data(), as: UTF8.self)
                #expect(dump.contains("[redacted]"), "the dump holds the run's redacted error: \(dump.prefix(2000))")
            }
        }
    }

    /// Defect 4 (b, c): the key inside a longer word, percent-encoded, URL user information, and
    /// `api_key` written into `--url`, at every verbosity.
    @Test func keysInAnyFormAndCredentialsInURLsAreRedacted() async throws {
        let key = "S3cret/Key+0123"
        try await withSandbox { photosync, server in
            let item = #"{"id":"S3cret/Key+0123-x","owner":"o","ownername":"n","url_l":"u","title":"t"}"#
            let body = #"{"photos":{"page":1,"pages":1,"perpage":2,"total":2,"photo":[\#(item),{"id":"7","owner":"o","url_l":"u"}]},"stat":"ok"}"#
            server.route(Feed.path, .text(body))
            let url = server.feedURL.replacingOccurrences(of: "http://", with: "http://ana:hunter2@") + "?api_key=Other0Key99&token=tok3n"
            for verbosity in [[], ["--verbose"]] {
                let fetch = try await photosync.run(["fetch", "--db", photosync.db, "--url", url, "--full"] + verbosity,
                                                    environment: ["PHOTOSYNC_API_KEY": key])
                #expect(fetch.status == 0, "\(fetch)")
                let all = fetch.stdout + fetch.stderr
                for secret in [key, "S3cret%2FKey%2B0123", "hunter2", "ana:", "Other0Key99", "tok3n"] {
                    #expect(!all.contains(secret), "\(secret) in \(fetch)")
                }
                #expect(fetch.stderr.contains("skipped 1 item"), "\(fetch)")
            }
        }
    }

    /// Defect 4 (d): core dumps are off for the process; `--help` warns about `--api-key`.
    @Test func coreDumpsAreDisabledAndHelpWarnsAboutTheProcessList() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages([FeedItem("1", by: "Ana Lima", title: "One")], perPage: 1))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k").status == 0)
            // Hold the catalog's lock so a second fetch waits (--wait) long enough to be inspected.
            let descriptor = open(photosync.db, O_RDWR)
            #expect(flock(descriptor, LOCK_EX) == 0)
            let waiting = try photosync.start(["fetch", "--db", photosync.db, "--url", server.feedURL, "--api-key", "k", "--wait"])
            let found = await eventually(within: 20) { waiting.stderrSoFar.contains("waiting") }
            let limits = (try? String(contentsOfFile: "/proc/\(waiting.process.processIdentifier)/limits", encoding: .utf8)) ?? ""
            waiting.signal(SIGTERM)
            close(descriptor)
            _ = await waiting.finish()
            #expect(found)
            let core = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }
            #expect(core?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).prefix(2) == ["0", "0"], "\(limits)")
            let help = try await photosync.run(["fetch", "--help"])
            #expect(help.stdout.contains("process list"), "\(help)")
        }
    }

    /// Defects 5 and 6: `~` in PHOTOSYNC_DB is the home folder; folders photosync creates are 0700
    /// even under umask 0.
    @Test func tildeInTheEnvironmentAndPrivateFolders() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages([FeedItem("1", by: "Ana Lima", title: "One")], perPage: 1))
            let script = "umask 0; exec \"$0\" \"$@\""
            let fetch = try await photosync.run(["/bin/sh", "-c", script, PhotoSync.binary, "fetch", "--url", server.feedURL, "--api-key", "k",
                                                 "--log-file", "~/logs/deep/fetch.log"],
                                                environment: ["PHOTOSYNC_DB": "~/a/b/catalog.sqlite"], direct: true)
            #expect(fetch.status == 0, "\(fetch)")
            let home = photosync.directory + "/home"
            #expect(FileManager.default.fileExists(atPath: home + "/a/b/catalog.sqlite"))
            #expect(!FileManager.default.fileExists(atPath: photosync.directory + "/~"))
            for folder in [home + "/a", home + "/a/b", home + "/logs", home + "/logs/deep"] {
                var info = stat()
                #expect(stat(folder, &info) == 0 && info.st_mode & 0o777 == 0o700, "\(folder): \(String(info.st_mode & 0o777, radix: 8))")
            }
            for file in [home + "/a/b/catalog.sqlite", home + "/logs/deep/fetch.log"] {
                var info = stat()
                #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600, "\(file)")
            }
        }
    }

    /// Defect 7: a response starting with a UTF-8 byte-order mark is a feed like any other.
    @Test func aByteOrderMarkIsAccepted() async throws {
        try await withSandbox { photosync, server in
            let page = Feed.page(1, of: 1, perPage: 1, total: 1, [FeedItem("5", by: "Ana Lima", title: "BOM")])
            server.route(Feed.path, TestResponse(body: [0xEF, 0xBB, 0xBF] + Array(page.utf8)))
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k")
            #expect(fetch.status == 0, "\(fetch)")
            #expect(try jsonArray(try await photosync("list", "--format", "json")).map { $0["title"] as? String } == ["BOM"])
        }
    }

    /// Defect 9: ids as sent, dates in a sane range, counts that never reject a page.
    @Test func hostileNumbersFromTheFeed() async throws {
        try await withSandbox { photosync, server in
            func item(_ id: String, _ date: String) -> String {
                #"{"id":\#(id),"owner":"o1","ownername":"Ana","url_l":"u","title":"t\#(id)","dateupload":\#(date)}"#
            }
            let items = [item("1e400", "1"), item("-0", "1"), item("0", "1700000000"), item("42", "1000000000000000"),
                         item("43", "9200000000000000000")]
            let body = #"{"photos":{"page":1,"pages":1,"perpage":5,"total":99999999999999999999,"photo":[\#(items.joined(separator: ","))]},"stat":"ok"}"#
            server.route(Feed.path, .text(body))
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--format", "json")
            #expect(fetch.status == 0, "\(fetch)")
            let summary = try jsonObject(fetch)
            #expect(summary["skipped"] as? Int == 2 && summary["dates_unknown"] as? Int == 2, "\(fetch)")
            let rows = try jsonArray(try await photosync("list", "--sort", "id", "--format", "json"))
            #expect(rows.map { $0["id"] as? String } == ["0", "42", "43"])
            #expect(rows.map { $0["uploaded"] as? String } == ["2023-11-14T22:13:20Z", nil, nil])
            let runs = try jsonObject(try await photosync("status", "--format", "json"))["runs"] as? [[String: Any]]
            #expect(runs?.first?["dates_unknown"] as? Int == 2)
        }
    }
}

extension BinarySandbox {
    /// Runs `command` as given (no binary prepended): a shell around photosync, say.
    func run(_ command: [String], environment extra: [String: String] = [:], direct: Bool) async throws -> Result {
        try await start(command: command, environment: extra).finish()
    }
}

/// Polls `condition` every 20 ms until it holds or `seconds` pass.
func eventually(within seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
