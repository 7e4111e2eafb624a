import Dispatch
import Synchronization

/// One running observation (see ``StoreObservation``). Fetches run on the store's queue, one at a
/// time: a change noticed while none is queued queues one; while one is queued, nothing more (it
/// will see the change); while one runs, one more after it. A burst of saves costs at most two.
final class ObservationRun<Value: Sendable>: Sendable {
    private struct State {
        var stopped = false
        var scheduled = false
        var running = false
        var dirty = false
        /// The entities the last fetch read; nil before the first (every change counts then).
        var region: Set<String>?
        /// The history token of the last fetch's snapshot (when polling).
        var token: HistoryToken?
        var subscription: UInt64?
        var timer: PollTimer?
    }

    private struct Fetched {
        let value: Value
        let region: Set<String>
        let token: HistoryToken?
    }

    let container: PersistentContainer
    let polling: Duration?
    let fetch: @Sendable (ObjectContext) throws -> Value
    let deliver: @Sendable (Result<Value, any Error>) -> Void
    private let state = Mutex(State())

    init(container: PersistentContainer, polling: Duration?, fetch: @escaping @Sendable (ObjectContext) throws -> Value,
         deliver: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        (self.container, self.polling, self.fetch, self.deliver) = (container, polling, fetch, deliver)
    }

    /// Listens first, then fetches: a save committed after the first fetch's snapshot is never missed.
    func start() {
        let subscription = container.broadcaster.subscribe { [self] touched in storeDidChange(touched) }
        let timer = polling.map(startTimer)
        let stopped = state.withLock { state in
            (state.subscription, state.timer) = (subscription, timer)
            return state.stopped
        }
        if stopped { return stop() }
        requestFetch()
    }

    /// Stops listening and polling, and lets go of the closures (a fetch running ends unseen).
    func stop() {
        let (subscription, timer) = state.withLock { state in
            state.stopped = true
            defer { (state.subscription, state.timer) = (nil, nil) }
            return (state.subscription, state.timer)
        }
        if let subscription { container.broadcaster.unsubscribe(subscription) }
        timer?.timer.cancel()
    }

    private func storeDidChange(_ touched: Set<String>?) {
        let affects = state.withLock { state in
            guard let region = state.region, let touched else { return true }
            return !region.isDisjoint(with: touched)
        }
        if affects { requestFetch() }
    }

    func requestFetch() {
        let schedule = state.withLock { state in
            if state.stopped || state.scheduled { return false }
            if state.running {
                state.dirty = true
                return false
            }
            state.scheduled = true
            return true
        }
        if schedule { container.executor.enqueue { [self] in runFetch() } }
    }

    /// On the store's queue.
    private func runFetch() {
        let proceed = state.withLock { state in
            (state.scheduled, state.running) = (false, !state.stopped)
            return state.running
        }
        guard proceed else { return }
        let result = Result { try fetchOnce() }
        let again = state.withLock { state in
            state.running = false
            if case .success(let fetched) = result {
                state.region = fetched.region
                if let token = fetched.token { state.token = max(state.token ?? token, token) }
            }
            defer { state.dirty = false }
            return state.dirty && !state.stopped
        }
        guard !state.withLock({ $0.stopped }) else { return }
        deliver(result.map(\.value))
        if case .failure = result { return stop() }
        if again { requestFetch() }
    }

    /// The value, the entities it read and (when polling) the history token, in one snapshot.
    private func fetchOnce() throws -> Fetched {
        let context = container.newContext()
        return try container.store.read { reader in
            let recording = RegionRecordingReader(reader)
            let value = try context.reading(through: recording) { try fetch(context) }
            return Fetched(value: value, region: recording.region, token: try polling.map { _ in try HistoryPolling.token(reader) })
        }
    }

    private func startTimer(_ interval: Duration) -> PollTimer {
        let timer = DispatchSource.makeTimerSource(queue: container.executor.queue)
        let nanoseconds = HistoryPolling.nanoseconds(interval)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
        timer.setEventHandler { [weak self] in self?.poll() }
        timer.resume()
        return PollTimer(timer: timer)
    }

    /// On the store's queue: re-fetches when history after the last fetch's token changed an
    /// entity the observation reads (saves of other processes and containers).
    private func poll() {
        guard let seen = state.withLock({ $0.stopped ? nil : $0.token }) else { return }
        do {
            guard let entities = try HistoryPolling.entitiesChanged(in: container, after: seen) else { return }
            let affects = state.withLock { state in
                guard let region = state.region, let changed = entities.changed else { return true }
                if region.isDisjoint(with: changed) { state.token = max(state.token ?? entities.token, entities.token) }
                return !region.isDisjoint(with: changed)
            }
            if affects { requestFetch() }
        } catch {
            requestFetch()  // history deleted past the token, or the store unreadable: the fetch tells
        }
    }
}

/// The poll's timer, held under the run's lock: only created, then cancelled once.
private final class PollTimer: @unchecked Sendable {
    let timer: any DispatchSourceTimer
    init(timer: any DispatchSourceTimer) { self.timer = timer }
}
