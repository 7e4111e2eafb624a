#if canImport(Glibc)
import Glibc
#endif

extension FileLock {
    /// Whether a process holds the lock on the file at `path` now, read from `/proc/locks` without
    /// taking it (taking it even briefly could make a starting holder fail).
    static func isHeld(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, let locks = procLocks() else { return false }
        // "1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234567 0 EOF": major:minor in hex, then the inode.
        let device = hex(major(info.st_dev)) + ":" + hex(minor(info.st_dev)) + ":" + String(UInt64(info.st_ino))
        return locks.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count >= 6 && fields[1] == "FLOCK" && fields[3] == "WRITE" && fields[5] == device
        }
    }

    /// All of /proc/locks, read to its end: it reports a size of 0, and a read of "the file's
    /// size" gets only its first 4 KiB (about 70 locks), which on a busy machine missed a holder.
    private static func procLocks() -> String? {
        let descriptor = open("/proc/locks", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes += buffer[..<count]
        }
    }

    /// Two hex digits at least, as /proc/locks writes a device number.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return digits.count < 2 ? "0" + digits : digits
    }

    private static func major(_ device: dev_t) -> UInt32 { UInt32((device >> 8) & 0xfff) | UInt32((device >> 32) & ~0xfff) }
    private static func minor(_ device: dev_t) -> UInt32 { UInt32(device & 0xff) | UInt32((device >> 12) & ~0xff) }
}
