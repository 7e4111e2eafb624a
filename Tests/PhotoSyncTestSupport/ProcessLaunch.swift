import Foundation
import Synchronization

/// One spawn at a time: swift-corelibs-foundation's `Process.run()` crashed the test process when
/// several threads spawned at once (a bad pointer in `memcpy` inside `Process.run`, seen in CI once
/// `BinarySandbox.run` started processes on threads of their own). A spawn takes milliseconds.
private let launching = Mutex(())

extension Process {
    /// `run()`, never at the same time as another test's.
    public func runOneAtATime() throws {
        try launching.withLock { _ in try run() }
    }
}
