import Foundation
import Synchronization
import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

@Suite("Fetch lock", .removesTemporaryFiles, .onTestThreads)
struct FetchLockTests {
    private static let flockTool = "/usr/bin/flock"

    @Test("a second lock on the same catalog fails at once with .locked")
    func secondLockFails() throws {
        let database = try makeTemporaryDirectory() + "/c.sqlite"
        let first = try FetchLock.take(.file(database), wait: false) {}
        #expect(throws: PhotoSyncError.locked("another fetch is running on \(database)")) {
            try FetchLock.take(.file(database), wait: false) {}
        }
        #expect(PhotoSyncError.locked("").exitStatus == 75)
        withExtendedLifetime(first) {}
    }

    /// A refused attempt closes its own descriptor once. (It used to close it again in `deinit`:
    /// by then another thread could hold a file under that number, and a SQLite connection in a
    /// parallel test lost its database file: "disk I/O error".) A second thread keeps opening
    /// files and checks each is still open when it closes it.
    @Test("a refused lock never closes another thread's file")
    func refusedLockClosesOnlyItsOwnDescriptor() async throws {
        let database = try makeTemporaryDirectory() + "/c.sqlite"
        let holder = try FetchLock.take(.file(database), wait: false) {}
        let stop = Mutex(false)
        let watcher = Task.detached {
            await runOnDedicatedThread {
                var lost = 0
                while !stop.withLock({ $0 }) {
                    let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
                    if fcntl(descriptor, F_GETFD) == -1 || close(descriptor) != 0 { lost += 1 }
                }
                return lost
            }
        }
        for _ in 0..<2_000 { _ = try? FetchLock.take(.file(database), wait: false) {} }
        stop.withLock { $0 = true }
        #expect(await watcher.value == 0)
        withExtendedLifetime(holder) {}
    }

    @Test("releasing the lock lets the next fetch take it")
    func releaseThenRelock() throws {
        let database = try makeTemporaryDirectory() + "/c.sqlite"
        var first: FetchLock? = try FetchLock.take(.file(database), wait: false) {}
        #expect(first != nil)
        first = nil
        _ = try FetchLock.take(.file(database), wait: false) {}
    }

    @Test("a catalog the lock creates is private to its owner")
    func lockFileMode() throws {
        let database = try makeTemporaryDirectory() + "/c.sqlite"
        let lock = try FetchLock.take(.file(database), wait: false) {}
        let attributes = try FileManager.default.attributesOfItem(atPath: database)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        withExtendedLifetime(lock) {}
    }

    @Test("another process sees the lock, and gets it once released", .enabled(if: FileManager.default.isExecutableFile(atPath: flockTool)))
    func otherProcess() throws {
        let database = try makeTemporaryDirectory() + "/c.sqlite"
        var lock: FetchLock? = try FetchLock.take(.file(database), wait: false) {}
        #expect(try Self.flockNonBlocking(database) == 1)
        #expect(lock != nil)
        lock = nil
        #expect(try Self.flockNonBlocking(database) == 0)
    }

    @Test("with wait, the lock is taken once the other process lets go", .enabled(if: FileManager.default.isExecutableFile(atPath: flockTool)))
    func waitsForOtherProcess() async throws {
        let database = try makeTemporaryDirectory() + "/c.sqlite"
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: Self.flockTool)
        holder.arguments = [database, "sleep", "3"]
        try holder.runOneAtATime()
        // Seconds of waiting, on its own thread: blocking the cooperative pool would starve the
        // in-process HTTP servers of other suites.
        let waited = try await runOnDedicatedThread { () -> Result<Bool, any Error> in
            Result {
                // Wait until the child holds the lock.
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline, (try? FetchLock.take(.file(database), wait: false) {}) != nil {
                    Thread.sleep(forTimeInterval: 0.05)
                }
                var waited = false
                let lock = try FetchLock.take(.file(database), wait: true) { waited = true }
                holder.waitUntilExit()
                withExtendedLifetime(lock) {}
                return waited
            }
        }.get()
        #expect(waited)
    }

    @Test("every name of one catalog shares its lock: a symlink is locked out")
    func symlinkSharesTheLock() throws {
        let directory = try makeTemporaryDirectory()
        let database = directory + "/c.sqlite", alias = directory + "/alias.sqlite"
        let first = try FetchLock.take(.file(database), wait: false) {}
        try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: database)
        #expect(throws: PhotoSyncError.locked("another fetch is running on \(alias)")) {
            try FetchLock.take(.file(alias), wait: false) {}
        }
        withExtendedLifetime(first) {}
    }

    @Test("a catalog with a second hard link is refused, whichever name is used")
    func hardLinkIsRefused() throws {
        let directory = try makeTemporaryDirectory()
        let database = directory + "/c.sqlite", second = directory + "/link.sqlite"
        _ = try FetchLock.take(.file(database), wait: false) {}
        #expect(link(database, second) == 0)
        for path in [database, second] {
            #expect(throws: PhotoSyncError.catalog(PhotoSyncError.hardLinkProblem(path, 2))) {
                try FetchLock.take(.file(path), wait: false) {}
            }
        }
    }

    @Test("fetchIsRunning sees a lock held by another process, without taking it", .enabled(if: FileManager.default.isExecutableFile(atPath: flockTool)))
    func isHeldReadsProcLocks() throws {
        let database = try makeTemporaryDirectory() + "/c.sqlite"
        _ = try FetchLock.take(.file(database), wait: false) {}
        #expect(try !CatalogLocation.file(database).fetchIsRunning())
        var lock: FetchLock? = try FetchLock.take(.file(database), wait: false) {}
        #expect(try CatalogLocation.file(database).fetchIsRunning())
        #expect(lock != nil)
        lock = nil
        #expect(try !CatalogLocation.file(database).fetchIsRunning())
    }

    /// /proc/locks is longer than 4 KiB on a busy machine; isHeld read only that much of it, so
    /// `status` showed a running fetch's run as abandoned. The lock is taken first and 300 others
    /// after it (the kernel lists newer locks first).
    @Test("fetchIsRunning finds a lock past the first 4 KiB of /proc/locks")
    func isHeldReadsAllOfProcLocks() throws {
        let directory = try makeTemporaryDirectory()
        let database = directory + "/c.sqlite"
        let lock = try FetchLock.take(.file(database), wait: false) {}
        var others: [Int32] = []
        defer { others.forEach { close($0) } }
        for index in 0..<300 {
            let descriptor = open(directory + "/other-\(index)", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            try #require(descriptor >= 0 && flock(descriptor, LOCK_EX | LOCK_NB) == 0)
            others.append(descriptor)
        }
        let text = try #require(String(data: FileHandle(forReadingAtPath: "/proc/locks")?.readToEnd() ?? Data(), encoding: .utf8))
        #expect(text.utf8.count > 300 * 40, "all of /proc/locks: \(text.utf8.count) bytes")
        #expect(try CatalogLocation.file(database).fetchIsRunning())
        withExtendedLifetime(lock) {}
    }

    /// `flock -n FILE true` in a child process: 0 if it got the lock, 1 if someone holds it.
    private static func flockNonBlocking(_ path: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: flockTool)
        process.arguments = ["-n", path, "true"]
        try process.runOneAtATime()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
