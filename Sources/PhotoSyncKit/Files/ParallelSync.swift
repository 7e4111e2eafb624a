import Dispatch
import Glibc
import Synchronization

/// fsyncs many files at once, on up to `threads` threads (the calling one included): the file
/// system commits its journal once for all the fsyncs waiting together, where one fsync after
/// another pays a commit and a disk flush each (3 to 7 ms here, the whole cost of keeping a file).
/// The helper threads stay between batches (a run keeps a hundred batches or more).
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
        // A helper that cannot start leaves its stripe to the calling thread.
        let helpers = SyncHelper.take(stripes - 1)
        for (offset, helper) in helpers.enumerated() { helper.start { sync(offset + 1) } }
        for stripe in (helpers.count + 1)..<stripes { sync(stripe) }
        sync(0)
        helpers.forEach { $0.wait() }
        SyncHelper.giveBack(helpers)
        return results.withLock { $0 }
    }

    private static func syncOne(_ descriptor: Int32) -> Int32 {
        Glibc.fsync(descriptor) == 0 ? 0 : errno
    }
}

/// A thread waiting for one stripe of fsyncs at a time; idle ones wait in `idle` for the next batch.
private final class SyncHelper: Sendable {
    private let go = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let work = Mutex<(@Sendable () -> Void)?>(nil)

    private static let idle = Mutex<[SyncHelper]>([])

    /// Up to `count` helpers, started as needed: fewer when threads cannot be started.
    static func take(_ count: Int) -> [SyncHelper] {
        var helpers = idle.withLock { idle in
            defer { idle.removeLast(min(count, idle.count)) }
            return Array(idle.suffix(count))
        }
        while helpers.count < count {
            let helper = SyncHelper()
            guard let thread = try? WorkerThread(doing: "fsync", { helper.run() }) else { break }
            thread.detach()
            helpers.append(helper)
        }
        return helpers
    }

    static func giveBack(_ helpers: [SyncHelper]) {
        idle.withLock { $0 += helpers }
    }

    func start(_ body: @escaping @Sendable () -> Void) {
        work.withLock { $0 = body }
        go.signal()
    }

    func wait() { finished.wait() }

    private func run() {
        while true {
            go.wait()
            work.withLock { work in
                defer { work = nil }
                return work
            }?()
            finished.signal()
        }
    }
}
