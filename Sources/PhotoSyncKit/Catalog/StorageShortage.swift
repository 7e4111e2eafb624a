import Foundation

/// What ran out when a catalog write failed: SQLite says only "database or disk is full" or
/// "disk I/O error (SQLite code 4874)" (the `-shm` file could not grow), so the file system and
/// the process's file size limit are asked directly.
enum StorageShortage: Equatable {
    case diskFull
    case noFreeInodes
    /// `ulimit -f`, in bytes.
    case fileSizeLimit(UInt64)

    /// Below this much free space a page of SQLite's (or the 32 KiB `-shm` step) may not fit.
    private static let nearlyFull: UInt64 = 1_048_576

    /// The shortage that explains a failed write of the catalog at `path`, if any.
    static func at(_ path: String) -> StorageShortage? {
        // A file within a WAL frame or two of the limit is what stopped the write.
        if let limit = ResourceLimits.limit(RLIMIT_FSIZE), [path, path + "-wal", path + "-journal"].contains(where: { size($0) + 65_536 >= limit }) {
            return .fileSizeLimit(limit)
        }
        let folder = (path as NSString).deletingLastPathComponent
        var info = statvfs()
        // A file system without blocks (/proc, /sys) is never full: the write failed for another reason.
        guard statvfs(folder.isEmpty ? "." : folder, &info) == 0, info.f_blocks > 0 else { return nil }
        // root may use the blocks and inodes kept back for it; others may not.
        let privileged = geteuid() == 0
        let freeInodes = privileged ? info.f_ffree : info.f_favail
        let freeBytes = UInt64(privileged ? info.f_bfree : info.f_bavail) * UInt64(info.f_frsize)
        if info.f_files > 0 && freeInodes == 0 { return .noFreeInodes }
        return freeBytes < nearlyFull ? .diskFull : nil
    }

    /// One line for the user, no SQLite jargon.
    func message(writing path: String) -> String {
        switch self {
        case .diskFull: "disk full writing \(path): free some space on its file system, then run again"
        case .noFreeInodes: "no free inodes to create the catalog's files at \(path) (df -i): delete some files, then run again"
        case .fileSizeLimit(let limit): "file size limit reached writing \(path): \(limit) bytes (ulimit -f); raise the limit"
        }
    }

    private static func size(_ path: String) -> UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_size) : 0
    }
}
