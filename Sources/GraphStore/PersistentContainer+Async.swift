/// The async forms: each awaits the store's own queue (``StoreExecutor``), so a task never blocks
/// one of Swift's cooperative threads on SQLite or PostgreSQL. The synchronous forms stay, for
/// code that owns its thread (a command-line tool, a dedicated worker).
///
/// ```swift
/// let count = try await container.read { context in try context.count(FetchRequest<Photo>()) }
/// try await container.write { context in context.insert(Photo.self).title = "Dunes" }
/// ```
extension PersistentContainer {
    /// Runs `body` with a new context on the store's queue and returns its result. Return values
    /// and object IDs, not objects.
    public func read<T: Sendable>(_ body: @escaping @Sendable (ObjectContext) throws -> T) async throws -> T {
        try await executor.run { [self] in try body(newContext()) }
    }

    /// Runs `body` with a new context under `mergePolicy` on the store's queue, then saves what it
    /// changed; nothing is saved when it throws.
    public func write<T: Sendable>(
        mergePolicy: MergePolicy = .error, _ body: @escaping @Sendable (ObjectContext) throws -> T
    ) async throws -> T {
        try await executor.run { [self] in
            let context = newContext(mergePolicy: mergePolicy)
            let result = try body(context)
            if context.hasChanges { try context.save() }
            return result
        }
    }

    /// ``importing(mergePolicy:dryRun:_:)`` on the store's queue.
    public func importing<R: Sendable>(
        mergePolicy: MergePolicy, dryRun: Bool = false, _ body: @escaping @Sendable (ImportSession) throws -> R
    ) async throws -> R {
        try await executor.run { [self] in try importing(mergePolicy: mergePolicy, dryRun: dryRun, body) }
    }

    /// Runs `body` with a new context on a thread of its own (an import beside other work, say) and
    /// returns its result; unlike ``write(mergePolicy:_:)`` it does not wait for the store's queue.
    /// Return object IDs, not objects.
    public func performBackgroundTask<T: Sendable>(
        mergePolicy: MergePolicy = .error,
        _ body: @escaping @Sendable (ObjectContext) throws -> T
    ) async throws -> T {
        try await StoreExecutor.runAlongside { [self] in try body(newContext(mergePolicy: mergePolicy)) }
    }
}
