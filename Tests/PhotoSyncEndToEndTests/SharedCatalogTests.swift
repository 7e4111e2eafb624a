import Foundation
import PhotoSyncTestSupport
import Testing

/// One PostgreSQL catalog shared by many hosts (issue 15): processes that fetch, delete and copy at
/// once, and the advisory lock that lets one fetch run at a time.
@Suite("a catalog shared by many hosts", .onTestThreads)
struct SharedCatalogTests {
    static let names = ["Ana Lima", "Bruno Costa", "Chen Wei", "Dara Okafor", "Émile Roux"]

    /// The feed of round `round`: 30 photos, 10 of them new, the rest seen in earlier rounds.
    static func feed(round: Int) -> [Int: String] {
        let items = (round * 10 + 1...round * 10 + 30).map { FeedItem("\($0)", by: names[$0 % names.count], title: "P\($0) r\(round)") }
        return Feed.pages(items, perPage: 10)
    }

    static func fetchArguments(_ photosync: PhotoSync, _ server: TestHTTPServer) -> [String] {
        ["fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "10", "--full", "--wait", "--format", "json", "--db", photosync.db]
    }

    /// 8 processes per round, as 8 hosts: five fetch the round's feed (waiting for the lock), three
    /// delete photos or a photographer stored in earlier rounds. After each round every command
    /// succeeded, the invariants hold, nothing deleted came back, everything else the feeds held
    /// is there, and no two fetch runs overlapped in time.
    @Test func eightHostsFetchingAndDeletingAtOnceKeepTheCatalogsRules() async throws {
        try await withSandbox(.postgres) { photosync, server in
            var deletedIDs: Set<Int> = []
            var deletedNames: Set<String> = []
            var seen: Set<Int> = []
            for round in 0..<4 {
                server.serveFeed(Self.feed(round: round))
                var hosts = try (0..<5).map { _ in try photosync.start(Self.fetchArguments(photosync, server)) }
                var deletes: [Int] = []
                if round > 0 {
                    deletes = [round * 10 - 9, round * 10 - 8].filter { !deletedIDs.contains($0) && !deletedNames.contains(Self.names[$0 % 5]) }
                    hosts += try deletes.map { try photosync.start(["delete", "\($0)", "--db", photosync.db]) }
                }
                if round == 2 {
                    hosts.append(try photosync.start(["delete", "--photographer", Self.names[3], "--db", photosync.db]))
                    deletedNames.insert(Self.names[3])
                }
                for host in hosts {
                    let result = await host.finish()
                    #expect(result.status == 0, "round \(round): \(result)")
                }
                deletedIDs.formUnion(deletes)
                seen.formUnion(round * 10 + 1...round * 10 + 30)

                try await expectInvariants(photosync)
                let listed = try jsonArray(try await photosync("list", "--format", "json"))
                let ids = Set(listed.compactMap { ($0["id"] as? String).flatMap(Int.init) })
                let expected = seen.subtracting(deletedIDs).filter { !deletedNames.contains(Self.names[$0 % 5]) }
                #expect(ids == expected, "round \(round): catalog differs from the feeds minus the deletes")
                try await Self.expectFetchesRanOneAtATime(photosync, round: round)
            }
        }
    }

    /// The runs' exact start and end times, from the database: each run started after the
    /// previous one ended.
    static func expectFetchesRanOneAtATime(_ photosync: PhotoSync, round: Int) async throws {
        let catalog = try #require(photosync.postgres)
        let rows = try await PostgresTestCatalog.query(catalog.url, #"SELECT started, finished FROM "FetchRun" ORDER BY started"#)
        let runs = rows.split(separator: "\n").map { $0.split(separator: "|").map { Double($0) ?? -1 } }
        #expect(runs.count == 5 * (round + 1), "every fetch recorded its run")
        for (previous, next) in zip(runs, runs.dropFirst()) {
            #expect(next[0] >= previous[1], "round \(round): a run started before the previous one finished")
        }
    }

    /// Host A's fetch holds the lock (stuck on page 2); host B's fetch exits 75; host C's, told
    /// to wait, waits; A dies by SIGKILL: its connection ends, the lock with it, and C runs.
    @Test func aFetchOnAnotherHostHoldingTheLockExitsTempFailUnlessToldToWait() async throws {
        try await withSandbox(.postgres) { photosync, server in
            let items = (1...4).map { FeedItem("\($0)", by: "Ana Lima", title: "P\($0)") }
            let page1 = Feed.page(1, of: 2, perPage: 2, total: 4, Array(items[0..<2]))
            server.route(Feed.path) { request in
                request.query["page"] == "1"
                    ? .text(page1, headers: ["Content-Type": "application/json"])
                    : TestResponse(status: 503, headers: ["Retry-After": "60"])
            }
            let arguments = ["fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "2", "--db", photosync.db]
            let hostA = try photosync.start(arguments + ["--retries", "5", "--wait"])
            try await Self.waitUntilRunning(photosync)

            let hostB = try await photosync.run(arguments)
            #expect(hostB.status == 75, "\(hostB)")
            #expect(hostB.stderr.contains("another fetch is running"), "\(hostB)")
            let hostC = try photosync.start(arguments + ["--wait"])
            let deadline = ContinuousClock.now + .seconds(300)
            while !hostC.stderrSoFar.contains("waiting for another fetch") && hostC.process.isRunning && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            server.serveFeed(Feed.pages(items, perPage: 2))
            hostA.signal(SIGKILL)
            _ = await hostA.finish()
            let waited = await hostC.finish()
            #expect(waited.status == 0, "\(waited)")
            #expect(waited.stderr.contains("waiting for another fetch"), "\(waited)")
            let runs = try #require(try jsonObject(try await photosync("status", "--format", "json"))["runs"] as? [[String: Any]])
            #expect(runs.map { $0["outcome"] as? String } == ["succeeded", "abandoned"])
            try await expectInvariants(photosync)
        }
    }

    /// SIGKILL at moments spread over fetches of 12 pages of 100 new photos each: the catalog holds
    /// whole pages only, and the next fetch takes the lock at once. One round's server answers 503
    /// for page 5 (the fetch waits to retry), so at least one kill lands inside a fetch however
    /// fast the fetch or slow the machine; the others land where they land.
    @Test func aFetchKilledMidPageLeavesWholePagesAndFreesTheLock() async throws {
        try await withSandbox(.postgres) { photosync, server in
            var added: [Int] = []
            var before = 0
            for (round, pages) in [1, 2, 4, 6, 9].enumerated() {
                let items = (1...1200).map { FeedItem("\(round * 10_000 + $0)", by: Self.names[$0 % 5], title: "P\($0)") }
                Self.serve(Feed.pages(items, perPage: 100), holding: pages == 4 ? 5 : nil, on: server)
                let running = try photosync.start(["fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "100",
                                                   "--pages", "12", "--retries", "10", "--db", photosync.db])
                try await Self.waitUntilRunning(photosync, pages: pages, runs: round + 1, while: running)
                running.signal(SIGKILL)
                _ = await running.finish()
                let photos = try #require(try jsonObject(try await photosync("status", "--format", "json"))["photos"] as? Int)
                #expect(photos % 100 == 0, "after a kill past page \(pages): \(photos) photos is not whole pages")
                added.append(photos - before)
                before = photos
                try await expectInvariants(photosync)
            }
            #expect(added.contains { $0 > 0 && $0 < 1200 }, "no kill landed inside a fetch: \(added)")
            #expect(added[2] == 400, "the round held at page 5 kept \(added[2]) photos, not its 4 pages: \(added)")
            let last = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "100", "--pages", "12")
            #expect(last.status == 0, "\(last)")
            try await expectInvariants(photosync)
        }
    }

    /// Serves `pages`, answering 503 (retry in 3 seconds) for page `held`, if any.
    static func serve(_ pages: [Int: String], holding held: Int?, on server: TestHTTPServer) {
        server.route(Feed.path) { request in
            guard let number = request.query["page"].flatMap(Int.init), let body = pages[number] else { return .status(404) }
            if number == held { return TestResponse(status: 503, headers: ["Retry-After": "3"]) }
            return .text(body, headers: ["Content-Type": "application/json"])
        }
    }

    /// Waits until the catalog's newest run is running with `pages` pages (or more) saved, and is the
    /// `runs`th run when given (a run killed before shows as running while the next holds the lock).
    static func waitUntilRunning(_ photosync: PhotoSync, pages: Int = 1, runs: Int? = nil, while process: PhotoSync.Running? = nil) async throws {
        let deadline = ContinuousClock.now + .seconds(400)
        while ContinuousClock.now < deadline {
            if let process, !process.process.isRunning { return }
            let status = try? jsonObject(try await photosync("status", "--format", "json"))
            let recent = status?["runs"] as? [[String: Any]] ?? []
            let isNew = runs.map { recent.count >= $0 } ?? true
            if isNew, recent.first?["outcome"] as? String == "running", (recent.first?["pages"] as? Int ?? 0) >= pages { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the first fetch never saved its first page")
    }

    /// SQLite → PostgreSQL → SQLite: everything comes back alike; a destination that holds a
    /// catalog's rows is refused and left as it was; the URL's password is never shown.
    @Test func migrateCopiesACatalogBothWaysAndRefusesAFullDestination() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages((1...25).map { FeedItem("\($0)", by: Self.names[$0 % 5], title: "P\($0)") }, perPage: 10))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k").status == 0)
            let beforeDelete = try #require(try jsonObject(try await photosync("changes", "--format", "json"))["token"] as? String)
            #expect(try await photosync("delete", "3").status == 0)
            let postgres = try await PostgresTestCatalog.made()
            let to = try await photosync("migrate", "--to", postgres.url)
            #expect(to.status == 0, "\(to)")
            #expect(to.stdout.contains("photos: 24\n") && to.stdout.contains("photographers: 5\n")
                    && to.stdout.contains("runs: 1\n") && to.stdout.contains("excluded photos: 1\n"), "\(to)")

            // The history came along under its tokens, then a transaction of the migrate's own.
            let delete = try await photosync("changes", "--since", beforeDelete, "--format", "json")
            let copied = try await photosync.run(["changes", "--since", beforeDelete, "--format", "json", "--db", postgres.url])
            let (deleteChanges, copiedChanges) = (try jsonObject(delete)["changes"] as? [[String: Any]], try jsonObject(copied)["changes"] as? [[String: Any]])
            #expect(deleteChanges?.count == 2 && copiedChanges?.map { "\($0["token"]!) \($0["kind"]!)" } == deleteChanges?.map { "\($0["token"]!) \($0["kind"]!)" },
                    "\(copied)")
            #expect(try jsonObject(copied)["token"] as? String != (try jsonObject(delete)["token"] as? String), "no migrate transaction: \(copied)")

            let again = try await photosync("migrate", "--to", postgres.url)
            #expect(again.status == 74 && again.stderr.contains("not empty"), "\(again)")
            let back = photosync.directory + "/back.sqlite"
            let from = try await photosync.run(["migrate", "--from", postgres.url, "--db", back])
            #expect(from.status == 0, "\(from)")
            for command in [["list", "--format", "json"], ["photographers", "--format", "json"]] {
                let original = try await photosync.run(command + ["--db", photosync.db])
                #expect(try await photosync.run(command + ["--db", postgres.url]).stdout == original.stdout)
                #expect(try await photosync.run(command + ["--db", back]).stdout == original.stdout)
            }
            let missing = try await photosync.run(["migrate", "--to", postgres.url, "--db", photosync.directory + "/none.sqlite"])
            #expect(missing.status == 66, "\(missing)")
            #expect(!FileManager.default.fileExists(atPath: photosync.directory + "/none.sqlite"))
        }
    }

    /// `sslmode=verify-full` with the server's CA connects (and the connection is TLS, as the
    /// server reports it); with another CA the certificate is refused: one line, exit 74.
    @Test func tlsWithCertificateVerificationWorksWhenAskedFor() async throws {
        let ca = try #require(ProcessInfo.processInfo.environment["PHOTOSYNC_TEST_POSTGRES_CA"],
                              "PHOTOSYNC_TEST_POSTGRES_CA is not set: run `make test`, whose server speaks TLS")
        try await withSandbox(.postgres) { photosync, server in
            server.serveFeed(Feed.pages([FeedItem("1", by: "Ana Lima", title: "P1")], perPage: 10))
            let verified = photosync.db + "&sslmode=verify-full&sslrootcert=" + ca
            let fetch = try await photosync.run(["fetch", "--url", server.feedURL, "--api-key", "k", "--db", verified])
            #expect(fetch.status == 0, "\(fetch)")
            let catalog = try #require(photosync.postgres)
            let tls = try await PostgresTestCatalog.query(catalog.url + "&sslmode=verify-full&sslrootcert=" + ca,
                                                   "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
            #expect(tls == "t", "the verified connection uses TLS")

            let otherCA = photosync.directory + "/other-ca.crt"
            let openssl = try await photosync.start(command: ["/usr/bin/openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=another CA",
                "-keyout", photosync.directory + "/other-ca.key", "-out", otherCA]).finish()
            #expect(openssl.status == 0, "\(openssl)")
            let refused = try await photosync.run(["status", "--db", photosync.db + "&sslmode=verify-full&sslrootcert=" + otherCA])
            #expect(refused.status == 74, "\(refused)")
            #expect(refused.stderr.contains("certificate verify failed"), "\(refused)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused)")
        }
    }

    /// `db:` in the config file and `PHOTOSYNC_DB` name a PostgreSQL catalog as `--db` does.
    @Test func theConfigFileAndTheEnvironmentNameAPostgreSQLCatalog() async throws {
        try await withSandbox(.postgres) { photosync, server in
            server.serveFeed(Feed.pages([FeedItem("1", by: "Ana Lima", title: "P1")], perPage: 10))
            let folder = photosync.directory + "/config/photosync"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try "db: \(photosync.db)\n".write(toFile: folder + "/config.yaml", atomically: true, encoding: .utf8)
            let before = try await photosync.run(["status"])
            #expect(before.status == 66 && before.stderr.contains("no catalog at postgresql://"), "\(before)")
            let fetch = try await photosync.run(["fetch", "--url", server.feedURL, "--api-key", "k"])
            #expect(fetch.status == 0, "\(fetch)")
            try FileManager.default.removeItem(atPath: folder + "/config.yaml")
            let listed = try await photosync.run(["list", "--format", "json"], environment: ["PHOTOSYNC_DB": photosync.db])
            #expect(try jsonArray(listed).compactMap { $0["id"] as? String } == ["1"], "\(listed)")
        }
    }

    /// The URL without a password: libpq finds it in `~/.pgpass` (mode 0600), as for psql.
    @Test func thePasswordCanComeFromPgpass() async throws {
        try await withSandbox(.postgres) { photosync, server in
            let catalog = try #require(photosync.postgres)
            var components = try #require(URLComponents(string: catalog.url))
            let password = try #require(components.password, "the test server's URL holds a password")
            components.password = nil
            let url = try #require(components.string)
            let line = "\(components.host ?? ""):\(components.port ?? 5432):*:\(components.user ?? ""):\(password)\n"
            let pgpass = photosync.directory + "/home/.pgpass"
            #expect(FileManager.default.createFile(atPath: pgpass, contents: Data(line.utf8), attributes: [.posixPermissions: 0o600]))
            server.serveFeed(Feed.pages([FeedItem("1", by: "Ana Lima", title: "P1")], perPage: 10))
            let fetch = try await photosync.run(["fetch", "--url", server.feedURL, "--api-key", "k", "--db", url])
            #expect(fetch.status == 0, "\(fetch)")
            try FileManager.default.removeItem(atPath: pgpass)
            let refused = try await photosync.run(["status", "--db", url])
            #expect(refused.status == 74 && refused.stderr.contains("password"), "without ~/.pgpass: \(refused)")
        }
    }

    @Test func aPasswordInTheCatalogURLIsNeverShown() async throws {
        try await withSandbox { photosync, _ in
            let port = try closedLoopbackPort()
            let url = "postgresql://someone:Sup3rSecretPw@127.0.0.1:\(port)/nowhere"
            // A source catalog, so that migrate reaches its destination.
            let source = try await photosync("fetch", "--url", "file://\(packageRoot)/Fixtures/feed/recent-page-1.json", "--quiet")
            #expect(source.status == 0, "\(source)")
            for command in [["status"], ["list"], ["fetch", "--url", "http://127.0.0.1:\(port)/", "--api-key", "k"], ["migrate", "--to", url]] {
                let result = try await photosync.run(command + ["--db", command[0] == "migrate" ? photosync.db : url])
                #expect(result.status == 74, "the catalog cannot be opened: \(command): \(result)")
                #expect(!(result.stdout + result.stderr).contains("Sup3rSecretPw"), "\(command): \(result)")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(command): one line: \(result)")
            }
            for format in ["text", "json"] {
                let config = try await photosync.run(["config", "--format", format, "--db", url])
                #expect(config.status == 0 && config.stdout.contains("postgresql://someone:***@127.0.0.1:\(port)/nowhere"), "\(config)")
                #expect(!config.stdout.contains("Sup3rSecretPw"), "\(config)")
            }
        }
    }
}
