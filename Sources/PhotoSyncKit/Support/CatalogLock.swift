import Foundation

/// An exclusive `flock` on `<catalog>.lock`, held for a whole fetch so two cron runs never interleave.
///
/// The kernel drops the lock when the file descriptor closes: on `deinit`, or when the process
/// dies however it dies, so a crashed fetch never leaves a stale lock behind.
final class CatalogLock {
    private let descriptor: Int32

    /// Takes the lock, waiting for it when `wait` is true and failing with `.locked` (exit 75) otherwise.
    ///
    /// `onWait` is called once, before blocking, when another process holds the lock.
    init(databasePath: String, wait: Bool, onWait: () -> Void = {}) throws(PhotoSyncError) {
        descriptor = try Self.lockedDescriptor(databasePath: databasePath, wait: wait, onWait: onWait)
    }

    /// The lock file's descriptor, holding the lock; on failure it is closed here, before any
    /// `CatalogLock` exists. (Closing it in a failing `init` and again in `deinit`, which runs for
    /// an initialized object, closed whatever file another thread had opened under that number.)
    private static func lockedDescriptor(databasePath: String, wait: Bool, onWait: () -> Void) throws(PhotoSyncError) -> Int32 {
        let path = databasePath + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .catalog("cannot open lock file \(path): \(String(cString: strerror(errno)))")
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return descriptor }
        let busy = errno == EWOULDBLOCK
        guard busy, wait else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw busy ? .locked("another fetch is running on \(databasePath)") : .catalog("cannot lock \(path): \(reason)")
        }
        onWait()
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw .catalog("cannot lock \(path): \(reason)")
            }
        }
        return descriptor
    }

    deinit {
        close(descriptor)
    }
}
