import Synchronization

/// Tells a container's observations which entities each committed write changed (context saves,
/// import sessions, copies: every write through the container's store, see ``ObservedStore``).
final class SaveBroadcaster: Sendable {
    /// The entities a write changed (join tables by their own names); nil when unknown, which
    /// every observation takes as a change of what it reads.
    typealias Listener = @Sendable (Set<String>?) -> Void

    private struct Listeners: ~Copyable {
        var next: UInt64 = 0
        var byID: [UInt64: Listener] = [:]
    }

    private let listeners = Mutex(Listeners())

    /// Whether any observation listens (else writes record nothing).
    var isObserved: Bool { listeners.withLock { !$0.byID.isEmpty } }

    func subscribe(_ listener: @escaping Listener) -> UInt64 {
        listeners.withLock { listeners in
            listeners.next += 1
            listeners.byID[listeners.next] = listener
            return listeners.next
        }
    }

    func unsubscribe(_ id: UInt64) {
        _ = listeners.withLock { $0.byID.removeValue(forKey: id) }
    }

    /// Calls every listener, outside the lock (a listener only schedules work).
    func post(_ entities: Set<String>?) {
        let current = listeners.withLock { Array($0.byID.values) }
        for listener in current { listener(entities) }
    }
}
