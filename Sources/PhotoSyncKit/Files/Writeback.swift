import Glibc

/// Starts writing a file's bytes to the disk without waiting for them (Linux's `sync_file_range`
/// with `SYNC_FILE_RANGE_WRITE`), so that many files are written at once and the fsync that
/// follows mostly finds its work done. Looked up at run time: Swift's Glibc module does not
/// declare it, and where it is missing fsync alone does the job, only slower.
enum Writeback {
    private typealias SyncFileRange = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32
    private static let syncFileRange: SyncFileRange? = dlsym(nil, "sync_file_range").map { unsafeBitCast($0, to: SyncFileRange.self) }
    private static let write: UInt32 = 2  // SYNC_FILE_RANGE_WRITE

    /// Queues the writing of every dirty byte of `descriptor`; errors are left for fsync to report.
    static func start(_ descriptor: Int32) {
        _ = syncFileRange?(descriptor, 0, 0, write)
    }
}
