import Foundation

/// Runs blocking `work` on a fresh thread and awaits its result.
///
/// Async tests must not block Swift's cooperative pool (two threads here):
/// the in-process `TestHTTPServer` needs those threads to answer the very
/// request the test is blocked on.
public func runOnDedicatedThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
