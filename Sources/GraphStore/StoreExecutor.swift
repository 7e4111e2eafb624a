import Dispatch

/// A store's own serial queue, as GRDB's `SerializedDatabase` has one: its blocking SQLite or
/// libpq work runs there, one job at a time, and an async caller awaits it without holding one of
/// Swift's cooperative threads (two on a two-core machine: blocking them starves every other task
/// of the process).
final class StoreExecutor: Sendable {
    let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Runs `body` on the store's queue, after the jobs before it, and returns its result.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Runs `body` on the store's queue, after the jobs before it, without waiting for it.
    func enqueue(_ body: @escaping @Sendable () -> Void) {
        queue.async(execute: body)
    }

    /// Runs `body` on a thread of Dispatch's own pool, beside the store's queue (background work
    /// that may run alongside other work on the store).
    static func runAlongside<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }
}
