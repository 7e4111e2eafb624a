import Foundation
import Glibc
import PhotoSyncTestSupport
import Testing

/// SIGTERM stops `serve` at once even while a search reads every title: the scan is interrupted,
/// its request answered 503 (or closed), and the exit is clean.
@Suite(.serialized, .onTestThreads)
struct ServeShutdownTests {
    /// Long titles (about 180 KB each, with marks and scalars only the full fold handles) make a
    /// search for a word none holds take seconds.
    static func slowItems() -> [FeedItem] {
        let title = String(repeating: "Stra\u{301}ße ﬀ 𝐀 ", count: 12_000)
        return (1...40).map { FeedItem("\(500 + $0)", by: "Ana Lima", title: title + "\($0)") }
    }

    /// PostgreSQL folds those titles quickly: there a transaction holding the photos' table
    /// exclusively makes the search wait instead, until SIGTERM cancels it. The lock lasts a minute
    /// (a loaded machine took minutes for this test; 8 s let a search finish), or until the test
    /// ends it, after serve has stopped: a search that was not cancelled then finishes with 200.
    static func lockPhotos(_ url: String) async throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [url, "-X", "-q", "-c", "BEGIN; LOCK TABLE \"Photo\" IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60); COMMIT;"]
        (process.standardOutput, process.standardError) = (FileHandle.nullDevice, FileHandle.nullDevice)
        try await runOnDedicatedThread { Result { try process.runOneAtATime() } }.get()
        let held = "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'Photo' AND l.mode = 'AccessExclusiveLock' AND l.granted"
        for _ in 0..<100 where try await PostgresTestCatalog.query(url, held) != "1" {
            try await Task.sleep(for: .milliseconds(100))
        }
        return process
    }

    /// Ends the lock's transaction: its backend sleeps on after psql goes.
    static func unlock(_ locker: Process, _ url: String) async throws {
        await runOnDedicatedThread { locker.terminate() }
        _ = try await PostgresTestCatalog.query(url, "SELECT count(pg_terminate_backend(l.pid)) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
            + "WHERE c.relname = 'Photo' AND l.mode = 'AccessExclusiveLock' AND l.pid <> pg_backend_pid()")
    }

    @Test(arguments: [CatalogKind.sqlite, .postgres])
    func sigtermDuringASlowSearchStopsCleanly(_ kind: CatalogKind) async throws {
        try await withDownloadFixture(kind) { fixture in
            try await fixture.fetch(Self.slowItems())
            let gallery = try await ServedGallery.start(fixture.photosync)
            let port = gallery.port
            var locker: Process?
            if let postgres = fixture.photosync.postgres { locker = try await Self.lockPhotos(postgres.url) }
            // Two letters: too short for the search index, so the search reads every title.
            let search = Task {
                await runOnDedicatedThread {
                    RawResponse.exchange(Array("GET /search?q=zq HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8), port: port)
                }
            }
            // Early enough that the scan (seconds on SQLite, less on PostgreSQL) is still running; a
            // SIGTERM that comes before the request is read closes it, which passes too.
            try await Task.sleep(for: .milliseconds(250))
            let stopped = await gallery.stop()
            if let locker, let postgres = fixture.photosync.postgres { try await Self.unlock(locker, postgres.url) }
            let answer = await search.value.flatMap(RawResponse.init)
            #expect(stopped.status == 0, "\(stopped)")
            #expect(stopped.stderrLines.last == "stopped", "\(stopped.stderr)")
            #expect(!stopped.stderr.contains("Fatal") && !stopped.stderr.contains("Stack") && !stopped.stderr.contains("backtrace"), "\(stopped.stderr)")
            #expect(answer == nil || answer?.status == 503, "\(String(describing: answer?.status))")
        }
    }
}
