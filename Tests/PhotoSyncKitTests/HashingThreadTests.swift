import Foundation
@testable import PhotoSyncKit
import PhotoSyncTestSupport
import Synchronization
import Testing

/// Digests computed on `HashingThread` from blocks handed over in order, several streams at once.
@Suite("hashing thread", .onTestThreads)
struct HashingThreadTests {
    /// Bytes that differ from block to block, so a block hashed twice, out of order or not at
    /// all changes the digest.
    static func bytes(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8 &+ seed) }
    }

    static func direct(_ bytes: [UInt8]) -> String {
        var hash = SHA256()
        hash.update(bytes)
        return hash.finish()
    }

    /// Feeds `bytes` in blocks filled from uneven chunks, as `ImageReceiver` does.
    static func throughThread(_ bytes: [UInt8]) -> StreamDigest {
        let digest = StreamDigest()
        var block = HashBlock.take()
        bytes.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let count = min(16_411, all.count - offset)
                var rest = UnsafeRawBufferPointer(rebasing: all[offset..<offset + count])
                while !rest.isEmpty {
                    rest = block.append(rest)
                    if block.isFull {
                        digest.update(block)
                        block = HashBlock.take()
                    }
                }
                offset += count
            }
        }
        if block.count > 0 { digest.update(block) } else { HashBlock.giveBack(block) }
        digest.seal()
        return digest
    }

    /// More blocks than the queue holds (so feeders wait for room), from three threads at once.
    @Test(.timeLimit(.minutes(1))) func interleavedStreamsEachGetTheirOwnDigest() async {
        #expect(HashingThread.shared != nil, "the hashing thread did not start")
        let sizes = [0, 1, HashingThread.blockSize, 20 * HashingThread.blockSize + 12_345]
        let results = Mutex<[String: String]>([:])
        await runOnDedicatedThread {
            let feeders = sizes.enumerated().map { seed, size in
                Thread {
                    let bytes = Self.bytes(size, seed: seed)
                    let digest = Self.throughThread(bytes)
                    results.withLock { $0["\(seed)"] = digest.value == Self.direct(bytes) ? "ok" : digest.value }
                }
            }
            feeders.forEach { $0.start() }
            while results.withLock({ $0.count }) < sizes.count { usleep(1_000) }
        }
        #expect(results.withLock { $0 } == Dictionary(uniqueKeysWithValues: sizes.indices.map { ("\($0)", "ok") }))
    }

    @Test func theValueCanBeReadTwice() {
        let digest = Self.throughThread(Array("abc".utf8))
        #expect(digest.value == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(digest.value == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
