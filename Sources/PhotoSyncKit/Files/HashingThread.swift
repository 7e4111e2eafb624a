import Dispatch
import Synchronization

/// Hashes the downloads' bytes on a thread of its own: sha256 of 500 MiB costs about 0.3 s of CPU
/// even with the CPU's SHA instructions, and on the transfers' thread it held up every socket read
/// behind it (a third of that thread's time). Blocks are hashed in the order they are handed over;
/// once `capacity` of them wait, the thread handing one over waits too, so memory stays bounded.
final class HashingThread: Sendable {
    static let blockSize = 256 << 10

    /// Nil when no thread could be started: each digest is then computed by the thread feeding it.
    static let shared: HashingThread? = {
        let hashing = HashingThread(capacity: 16)
        guard let thread = try? WorkerThread(doing: "hash downloads", { hashing.run() }) else { return nil }
        thread.detach()
        return hashing
    }()

    enum Work: @unchecked Sendable {
        case bytes(StreamDigest, HashBlock)
        case seal(StreamDigest)
    }

    private struct Queue {
        var work: [Work] = []
        var next = 0
    }

    private let queue = Mutex(Queue())
    private let ready = DispatchSemaphore(value: 0)
    private let room: DispatchSemaphore

    private init(capacity: Int) { room = DispatchSemaphore(value: capacity) }

    /// Queues `work`, waiting first for room when it carries a block.
    func hand(_ work: Work) {
        if case .bytes = work { room.wait() }
        queue.withLock { $0.work.append(work) }
        ready.signal()
    }

    private func run() {
        while true {
            ready.wait()
            let work = queue.withLock { queue -> Work in
                defer {
                    queue.next += 1
                    if queue.next == queue.work.count || queue.next >= 1024 {
                        queue.work.removeFirst(queue.next)
                        queue.next = 0
                    }
                }
                return queue.work[queue.next]
            }
            switch work {
            case .bytes(let digest, let block):
                digest.hashNow(block.bytes)
                HashBlock.giveBack(block)
                room.signal()
            case .seal(let digest):
                digest.finishNow()
            }
        }
    }
}

/// One stream's sha256, fed block by block through `HashingThread` (in order), its value waited
/// for only when the file is kept.
final class StreamDigest: @unchecked Sendable {
    /// Touched by the hashing thread only once a block was handed over.
    private var hash = SHA256()
    private var result = ""
    private let done = DispatchSemaphore(value: 0)

    /// Hashes `block` after the blocks handed over before it; the block is the digest's from now on.
    func update(_ block: HashBlock) {
        guard let thread = HashingThread.shared else {
            hashNow(block.bytes)
            return HashBlock.giveBack(block)
        }
        thread.hand(.bytes(self, block))
    }

    /// Hashes `bytes` on the calling thread: only before any block is handed over (a resumed part).
    func hashNow(_ bytes: UnsafeRawBufferPointer) { hash.update(bytes) }

    /// No more bytes: the digest is finished after the blocks handed over.
    func seal() {
        guard let thread = HashingThread.shared else { return finishNow() }
        thread.hand(.seal(self))
    }

    fileprivate func finishNow() {
        result = hash.finish()
        done.signal()
    }

    /// The digest as 64 lower-case hex digits, once sealed and hashed (waits until then).
    var value: String {
        done.wait()
        defer { done.signal() }
        return result
    }
}

/// `HashingThread.blockSize` bytes gathered from a transfer's chunks (libcurl hands over 16 KiB
/// at a time): written to the file with one call, then hashed. Spare blocks are reused.
struct HashBlock: @unchecked Sendable {
    private let base: UnsafeMutableRawPointer
    private(set) var count = 0

    private static let spares = Mutex<[UnsafeMutableRawPointer]>([])
    private static let keptSpares = 32

    static func take() -> HashBlock {
        let spare = spares.withLock { $0.popLast() }
        return HashBlock(base: spare ?? .allocate(byteCount: HashingThread.blockSize, alignment: 64))
    }

    static func giveBack(_ block: HashBlock) {
        let kept = spares.withLock { spares in
            guard spares.count < keptSpares else { return false }
            spares.append(block.base)
            return true
        }
        if !kept { block.base.deallocate() }
    }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
    var isFull: Bool { count == HashingThread.blockSize }

    /// Copies what fits of `chunk`; returns the rest.
    mutating func append(_ chunk: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let taken = min(chunk.count, HashingThread.blockSize - count)
        if taken > 0 { (base + count).copyMemory(from: chunk.baseAddress!, byteCount: taken) }
        count += taken
        return UnsafeRawBufferPointer(rebasing: chunk[taken...])
    }
}
