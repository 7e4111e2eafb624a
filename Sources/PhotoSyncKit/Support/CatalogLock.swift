import Foundation

/// An exclusive `flock` on the catalog file itself, held for a whole fetch so two cron runs never
/// interleave, whichever name (a symlink, a hard link) each was given for the catalog.
///
/// The kernel drops the lock when the descriptor closes: on `deinit`, or when the process dies
/// however it dies, so a crashed fetch never leaves a stale lock behind. `flock` locks are
/// separate from the POSIX locks SQLite takes, but closing any descriptor of the file drops this
/// process's POSIX locks on it: release the lock only after the catalog is closed.
final class CatalogLock {
    private let descriptor: Int32

    /// Takes the lock, creating the catalog file (mode 0600) if it does not exist yet; waits for it
    /// when `wait` is true and fails with `.locked` (exit 75) otherwise. A catalog with more than
    /// one hard link is refused (SQLite's WAL files are per name: two names corrupt one database).
    ///
    /// `onWait` is called once, before blocking, when another process holds the lock. A wait ends
    /// at `deadline` (`--max-time`) with `.timeLimit`.
    init(databasePath: String, wait: Bool, deadline: FetchDeadline? = nil, onWait: () -> Void = {}) throws(PhotoSyncError) {
        descriptor = try Self.lockedDescriptor(databasePath: databasePath, wait: wait, deadline: deadline, onWait: onWait)
    }

    /// The catalog's descriptor, holding the lock; on failure it is closed here, before any
    /// `CatalogLock` exists. (Closing it in a failing `init` and again in `deinit`, which runs for
    /// an initialized object, closed whatever file another thread had opened under that number.)
    private static func lockedDescriptor(
        databasePath: String, wait: Bool, deadline: FetchDeadline?, onWait: () -> Void
    ) throws(PhotoSyncError) -> Int32 {
        let descriptor = open(databasePath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let failure = errno
            if failure == ENOSPC || failure == EDQUOT, let shortage = StorageShortage.at(databasePath) {
                throw .catalog(shortage.message(writing: databasePath))
            }
            throw .catalog("cannot open \(databasePath): \(String(cString: strerror(failure)))")
        }
        if let links = linkCount(descriptor), links > 1 {
            close(descriptor)
            throw .catalog(hardLinkProblem(databasePath, links))
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return descriptor }
        let busy = errno == EWOULDBLOCK
        guard busy, wait else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw busy ? .locked("another fetch is running on \(databasePath)") : .catalog("cannot lock \(databasePath): \(reason)")
        }
        onWait()
        while flock(descriptor, deadline == nil ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            if let deadline, failure == EWOULDBLOCK {
                guard !deadline.hasPassed else {
                    close(descriptor)
                    throw deadline.exceeded
                }
                usleep(50_000)
                continue
            }
            guard failure == EINTR else {
                close(descriptor)
                throw .catalog("cannot lock \(databasePath): \(String(cString: strerror(failure)))")
            }
        }
        return descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The message for a catalog reached through several hard links.
    static func hardLinkProblem(_ path: String, _ links: Int) -> String {
        "\(path) has \(links) hard links; SQLite keeps its write-ahead log per name, so several names corrupt one catalog: keep one name (a symlink is safe)"
    }

    /// How many hard links the catalog at `path` has (nil when it is not a regular file).
    static func linkCount(atPath path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(info.st_nlink) : nil
    }

    private static func linkCount(_ descriptor: Int32) -> Int? {
        var info = stat()
        return fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(info.st_nlink) : nil
    }

    /// Whether a fetch holds the lock on the catalog at `path` now, read from `/proc/locks` without
    /// taking it (taking it even briefly could make a starting fetch exit 75).
    static func isHeld(databasePath path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, let locks = procLocks() else { return false }
        // "1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234567 0 EOF": major:minor in hex, then the inode.
        let device = String(format: "%02x:%02x:%llu", major(info.st_dev), minor(info.st_dev), UInt64(info.st_ino))
        return locks.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count >= 6 && fields[1] == "FLOCK" && fields[3] == "WRITE" && fields[5] == device
        }
    }

    /// All of /proc/locks. It reports a size of 0, and `String(contentsOfFile:)` then reads only its
    /// first 4 KiB (about 70 locks): on a busy machine a running fetch was shown as abandoned.
    static func procLocks() -> String? {
        guard let handle = FileHandle(forReadingAtPath: "/proc/locks"), let data = try? handle.readToEnd() else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private static func major(_ device: dev_t) -> UInt32 { UInt32((device >> 8) & 0xfff) | UInt32((device >> 32) & ~0xfff) }
    private static func minor(_ device: dev_t) -> UInt32 { UInt32(device & 0xff) | UInt32((device >> 12) & ~0xff) }
}
