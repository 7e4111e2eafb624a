import Glibc
import Synchronization

/// fsyncs many files at once, on up to `threads` threads (the calling one included): the file
/// system commits its journal once for all the fsyncs waiting together, where one fsync after
/// another pays a commit and a disk flush each (3 to 7 ms here, the whole cost of keeping a file).
enum ParallelSync {
    /// Each descriptor's errno, in order: 0 once its file is on disk.
    static func fsync(_ descriptors: [Int32], threads: Int = 8) -> [Int32] {
        let stripes = min(max(1, threads), descriptors.count)
        guard stripes > 1 else { return descriptors.map(syncOne) }
        let results = Mutex([Int32](repeating: 0, count: descriptors.count))
        let sync = { @Sendable (stripe: Int) in
            for index in stride(from: stripe, to: descriptors.count, by: stripes) {
                let code = syncOne(descriptors[index])
                results.withLock { $0[index] = code }
            }
        }
        // A thread that cannot start leaves its stripe to the calling thread.
        var helpers: [WorkerThread] = []
        var leftOver = [0]
        for stripe in 1..<stripes {
            if let thread = try? WorkerThread(doing: "fsync", { sync(stripe) }) { helpers.append(thread) } else { leftOver.append(stripe) }
        }
        leftOver.forEach(sync)
        helpers.forEach { $0.join() }
        return results.withLock { $0 }
    }

    private static func syncOne(_ descriptor: Int32) -> Int32 {
        Glibc.fsync(descriptor) == 0 ? 0 : errno
    }
}
