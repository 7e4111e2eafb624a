extension PersistentContainer {
    /// Observes what `fetch` reads: its value now, then again after every save that changed an
    /// entity it read (see ``StoreObservation``). `fetch` runs on the store's queue with a new
    /// context each time; return values, not objects.
    ///
    /// - Parameter pollingHistoryEvery: also read persistent history at this interval, to see
    ///   saves by other containers and processes (nil: only this container's writes count).
    public func observe<Value: Sendable>(
        pollingHistoryEvery interval: Duration? = nil, _ fetch: @escaping @Sendable (ObjectContext) throws -> Value
    ) -> StoreObservation<Value> {
        StoreObservation(container: self, polling: interval, fetch: fetch)
    }

    /// Observes `request`'s results, mapped by `transform` to values that may leave the store's queue.
    ///
    /// ```swift
    /// for try await titles in container.observe(FetchRequest<Book>(sortBy: [.ascending(\.$title)]), { $0.map(\.title) }) {
    ///     print(titles)
    /// }
    /// ```
    public func observe<T: ManagedObject, Value: Sendable>(
        _ request: FetchRequest<T>, pollingHistoryEvery interval: Duration? = nil, _ transform: @escaping @Sendable ([T]) throws -> Value
    ) -> StoreObservation<Value> {
        observe(pollingHistoryEvery: interval) { context in try transform(try context.fetch(request)) }
    }
}
