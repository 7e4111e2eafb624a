import Glibc

/// The limits a user or a service manager sets on the process (`ulimit -v`, `ulimit -n`, `ulimit -f`)
/// and what running into them looks like, so a failure they cause is reported as that limit
/// rather than as a crash, a hang or SQLite's "disk I/O error".
enum ResourceLimits {
    /// Free file descriptors a fetch needs: it holds the catalog, its `-wal` and `-shm`, the lock,
    /// readers on two threads, the log file and libcurl's sockets (17 at most, measured, standard
    /// streams included), with room to spare.
    static let descriptorsForFetch = 24
    /// Free file descriptors the other commands need: the catalog, its `-wal` and `-shm`, a log file.
    static let descriptorsForReading = 5

    /// The soft limit of `resource`, nil when unlimited.
    static func limit(_ resource: __rlimit_resource) -> UInt64? {
        var value = rlimit()
        guard getrlimit(__rlimit_resource_t(resource.rawValue), &value) == 0, value.rlim_cur != rlim_t.max else { return nil }
        return UInt64(value.rlim_cur)
    }

    /// `ulimit -v`, in bytes.
    static var addressSpace: UInt64? { limit(RLIMIT_AS) }

    /// Whether the process cannot open one more descriptor now. Async-signal-safe.
    static func descriptorsExhausted() -> Bool {
        let probe = fcntl(0, F_DUPFD_CLOEXEC, 0)
        if probe >= 0 {
            close(probe)
            return false
        }
        return errno == EMFILE || errno == ENFILE
    }

    /// Fails with `.outOfDescriptors` (74) before anything is opened when fewer than `needed`
    /// descriptors are free: past that point libdispatch and SQLite fail in ways that cannot be
    /// reported (a SIGILL inside libdispatch, "unable to open database file", a refused connection).
    static func checkDescriptors(needed: Int) throws(PhotoSyncError) {
        guard let limit = limit(RLIMIT_NOFILE), limit < 4_096 else { return }
        let free = Int(limit) - openDescriptors(below: Int(limit))
        guard free < needed else { return }
        throw .outOfDescriptors(
            "too few file descriptors: \(max(free, 0)) free under a limit of \(limit) (ulimit -n); this command needs \(needed): raise the limit")
    }

    /// How many descriptors below `bound` are open.
    private static func openDescriptors(below bound: Int) -> Int {
        (0..<Int32(bound)).reduce(0) { count, descriptor in fcntl(descriptor, F_GETFD) == -1 ? count : count + 1 }
    }

    /// "the address space is limited to 100 MiB (ulimit -v)", or nil without such a limit.
    static var addressSpaceNote: String? {
        addressSpace.map { "the address space is limited to \($0 / 1_048_576) MiB (ulimit -v)" }
    }
}
