import Foundation
#if canImport(Testing)
import Testing
#endif

/// Threads of the test process's own that run the tests, so their blocking work (SQLite, libpq,
/// waiting for child processes and sockets) never holds Swift's cooperative threads: there are
/// two on a 2-core machine, and the code under test, its in-process servers and every awaiting
/// test need them (see docs/testing.md).
///
/// A `TaskExecutor` (SE-0417): tests run under its preference, so a synchronous test body runs on
/// one of these threads, and an asynchronous one returns to them after each suspension. A job
/// that finds every thread busy gets a new one (up to ``maximumThreads``), so a test resuming after
/// a wait never queues behind blocked ones. How many tests run at once is swift-testing's to say:
/// `make test` sets `SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH`, whose wait, unlike one here,
/// does not count against a test's time limit.
public final class TestThreads: TaskExecutor, @unchecked Sendable {
    public static let shared = TestThreads()
    static let maximumThreads = 64

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var idle = 0
    private var threads = 0

    private init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        let grow = idle < jobs.count && threads < Self.maximumThreads
        if grow { threads += 1 } else { condition.signal() }
        let number = threads
        condition.unlock()
        if grow {
            let thread = Thread { [unowned self] in work() }
            thread.name = "test thread \(number)"
            thread.start()
        }
    }

    private func work() {
        while true {
            condition.lock()
            idle += 1
            while jobs.isEmpty { condition.wait() }
            idle -= 1
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

// PhotoSyncTestSupport is a plain target, built by `swift build` too, where Testing is absent.
#if canImport(Testing)
/// Runs each test of a suite on ``TestThreads``. Every suite of the package carries it (`@Suite(.onTestThreads)`).
public struct OnTestThreads: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(TestThreads.shared) { try await function() }
    }
}

extension Trait where Self == OnTestThreads {
    /// See ``OnTestThreads``.
    public static var onTestThreads: Self { OnTestThreads() }
}
#endif
