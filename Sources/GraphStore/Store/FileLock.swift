#if canImport(Glibc)
import Glibc
#endif

/// A SQLite store's named lock: an exclusive `flock` on the store file itself, so every name a
/// process gives the file (a symlink included) shares it. A file has one such lock, whatever the
/// name asked for.
///
/// The kernel drops it when the descriptor closes, on `deinit` or when the process dies however it
/// dies, so a crashed holder never leaves it behind. `flock` locks are separate from SQLite's POSIX
/// locks, but closing any descriptor of a file drops the process's POSIX locks on it: release
/// the lock only after every container on the file is closed.
final class FileLock: HeldLock {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Takes the lock, creating the file (mode 0600) if it does not exist yet; nil when another
    /// process holds it and `waiting` ran out. A file with more than one hard link is refused:
    /// SQLite keeps its write-ahead log per name, so two names corrupt one database.
    static func take(_ path: String, _ waiting: LockWait) throws(GraphStoreError) -> FileLock? {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(path, opening: true, errno) }
        if let links = linkCount(descriptor), links > 1 {
            close(descriptor)
            throw .hardLinked(path: path, links: links)
        }
        do throws(GraphStoreError) {
            guard try locked(descriptor, path, waiting) else {
                close(descriptor)
                return nil
            }
        } catch {
            close(descriptor)
            throw error
        }
        return FileLock(descriptor: descriptor)
    }

    /// Locks `descriptor`: false when another process holds the lock past `waiting`.
    private static func locked(_ descriptor: Int32, _ path: String, _ waiting: LockWait) throws(GraphStoreError) -> Bool {
        let deadline: ContinuousClock.Instant? = switch waiting {
        case .no: .now
        case .indefinitely: nil
        case .atMost(let timeout): .now + timeout
        }
        while flock(descriptor, deadline == nil ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if let deadline, code == EWOULDBLOCK {
                guard ContinuousClock.now < deadline else { return false }
                usleep(50_000)
            } else if code != EINTR {
                throw failure(path, opening: false, code)
            }
        }
        return true
    }

    private static func failure(_ path: String, opening: Bool, _ code: Int32) -> GraphStoreError {
        let kind: StoreFailure.Kind = switch code {
        case ENOSPC, EDQUOT: .diskFull
        case EACCES, EPERM: .permissionDenied
        case EROFS: .readOnly
        case EIO: .ioError
        case ENOMEM: .outOfMemory
        default: opening ? .cannotOpen : .other
        }
        return .lockFailed(path: path, opening: opening, reason: String(cString: strerror(code)), kind: kind)
    }

    /// The kernel keeps the lock as long as the descriptor is open.
    func reassert() -> Bool { true }

    func release() { flock(descriptor, LOCK_UN) }

    deinit { close(descriptor) }

    /// How many hard links the file at `path` has (nil when it is not a regular file).
    static func linkCount(atPath path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(info.st_nlink) : nil
    }

    private static func linkCount(_ descriptor: Int32) -> Int? {
        var info = stat()
        return fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(info.st_nlink) : nil
    }
}
