import Foundation
@testable import PhotoSyncKit
import PhotoSyncTestSupport
import Synchronization
import Testing

/// `ParallelSync` on helper threads that stay between batches: each descriptor's own result, in
/// order, batch after batch and from two callers at once.
@Suite("parallel fsync", .onTestThreads)
struct ParallelSyncTests {
    /// Open descriptors of fresh files, and -1 (EBADF) at the positions in `bad`.
    static func descriptors(_ count: Int, bad: Set<Int>, in folder: String) -> [Int32] {
        (0..<count).map { index in
            guard !bad.contains(index) else { return -1 }
            let descriptor = open("\(folder)/\(index)-\(UUID().uuidString)", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            _ = write(descriptor, "x", 1)
            return descriptor
        }
    }

    @Test(.timeLimit(.minutes(1))) func eachResultIsItsOwnDescriptorsBatchAfterBatch() async throws {
        let folder = FileManager.default.temporaryDirectory.path + "/parallel-sync-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outcomes = await runOnDedicatedThread { () -> [Bool] in
            let results = Mutex<[Bool]>([])
            let callers = (0..<2).map { caller in
                Thread {
                    for round in 0..<3 {
                        let bad: Set<Int> = [caller + round, 7 + round, 12]
                        let descriptors = Self.descriptors(13, bad: bad, in: folder)
                        let errors = ParallelSync.fsync(descriptors)
                        let expected = (0..<13).map { bad.contains($0) ? EBADF : 0 }
                        results.withLock { $0.append(errors == expected) }
                        for descriptor in descriptors where descriptor >= 0 { close(descriptor) }
                    }
                }
            }
            callers.forEach { $0.start() }
            while results.withLock({ $0.count }) < 6 { usleep(1_000) }
            return results.withLock { $0 }
        }
        #expect(outcomes == Array(repeating: true, count: 6))
    }
}
