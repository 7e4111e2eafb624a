/// Fresh values of a fetch, after every save that could change them: GRDB's `ValueObservation`,
/// or what Core Data's `NSFetchedResultsController` tracks (see <doc:Observation>).
///
/// Each iteration (each `for try await`) starts an observation of its own: the first value is
/// the fetch's result now; then one after every committed write, through this container, that
/// changed an entity the last fetch read (its entity, those its predicate and sort reach, and
/// any the closure read beyond). With `pollingHistoryEvery`, saves found in persistent history
/// count too: other containers' and other processes'. Fetches run on the store's own queue, never
/// on Swift's cooperative threads, one at a time, so a burst of saves costs one or two fetches; a
/// consumer slower than the saves gets the newest value and skips those it had no time for.
/// Ending the loop, or cancelling its task, stops the observation and lets go of the closure. A
/// fetch that throws ends the sequence with its error.
public struct StoreObservation<Value: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value

    let container: PersistentContainer
    let polling: Duration?
    let fetch: @Sendable (ObjectContext) throws -> Value

    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Value, any Error>.Iterator

        public mutating func next() async throws -> Value? { try await base.next() }
    }

    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let run = ObservationRun(container: container, polling: polling, fetch: fetch) { result in
            switch result {
            case .success(let value): continuation.yield(value)
            case .failure(let error): continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in run.stop() }
        run.start()
        return Iterator(base: stream.makeAsyncIterator())
    }

    /// The callback form: `onChange` gets each value, on the store's queue (return quickly; hop to
    /// your own actor for more). `onError` gets a fetch's error, after which nothing more comes.
    /// The observation lasts until the returned object is cancelled or released.
    public func start(
        onError: @escaping @Sendable (any Error) -> Void = { _ in }, onChange: @escaping @Sendable (Value) -> Void
    ) -> ObservationCancellable {
        let run = ObservationRun(container: container, polling: polling, fetch: fetch) { result in
            switch result {
            case .success(let value): onChange(value)
            case .failure(let error): onError(error)
            }
        }
        run.start()
        return ObservationCancellable(run.stop)
    }
}

/// Stops a callback observation when cancelled or released.
public final class ObservationCancellable: Sendable {
    private let stop: @Sendable () -> Void

    init(_ stop: @escaping @Sendable () -> Void) { self.stop = stop }

    public func cancel() { stop() }

    deinit { stop() }
}
