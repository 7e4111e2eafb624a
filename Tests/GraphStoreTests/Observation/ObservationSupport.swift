import Foundation
import GraphStore
import Synchronization
import Testing

/// The values an observation delivered, collected for a test to wait on.
final class Collected<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    private let failure = Mutex<String?>(nil)

    func append(_ value: Value) { values.withLock { $0.append(value) } }
    func fail(_ error: any Error) { failure.withLock { $0 = "\(error)" } }
    var all: [Value] { values.withLock { $0 } }
    var error: String? { failure.withLock { $0 } }

    /// Waits (at most 60 s, then records an issue) for a delivered value that satisfies `condition`.
    @discardableResult
    func first(where condition: @Sendable (Value) -> Bool, _ what: String = "value") async throws -> Value {
        for _ in 0..<6000 {
            if let found = values.withLock({ $0.first(where: condition) }) { return found }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("no \(what) delivered within 60 s; delivered: \(all), error: \(error ?? "none")")
        throw CancellationError()
    }

    /// Waits (at most 60 s, then records an issue) for the sequence to end with an error; returns its text.
    func failure() async throws -> String {
        for _ in 0..<6000 {
            if let error { return error }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the sequence did not fail within 60 s")
        throw CancellationError()
    }

    /// Iterates `observation` in a task of its own, collecting what it delivers.
    static func consuming(_ observation: StoreObservation<Value>) -> (Collected, Task<Void, Never>) {
        let collected = Collected()
        let task = Task {
            do {
                for try await value in observation { collected.append(value) }
            } catch {
                collected.fail(error)
            }
        }
        return (collected, task)
    }
}

/// Counts the fetches an observation runs.
final class FetchCounter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

extension PersistentContainer {
    /// Returns once every job queued on the store's queue before it has run (an observation's fetch among them).
    func drainQueue() async throws { try await read { _ in () } }
}
