/// A model and its store: the starting point. It is `Sendable`; contexts are made from it, one per task.
///
/// ```swift
/// let model = try ManagedObjectModel(version: 1, entities: [Photo.self, Photographer.self])
/// let container = try PersistentContainer(model: model, location: .file("/var/lib/app/catalog.sqlite"))
/// let context = container.newContext()
/// ```
public final class PersistentContainer: Sendable {
    public let model: ManagedObjectModel
    let store: any PersistentStore
    /// Where the store lives (its named locks are taken there).
    let location: StoreLocation
    /// The store's own queue, which the async forms await.
    let executor: StoreExecutor
    /// Tells observations what each committed write changed.
    let broadcaster = SaveBroadcaster()
    /// Ends the store's reads when the process stops (``interruptReads()``).
    let interruption: ReadInterruption

    /// Opens (creating or migrating) the store.
    ///
    /// - Parameters:
    ///   - busyTimeout: seconds to wait for another connection's write lock before failing.
    ///   - readOnly: open an existing file for reading only: no write lock is ever taken and the file
    ///     may be read-only, but it must already hold this model's schema (else `incompatibleStore`),
    ///     and every save fails with `writeFailed`.
    ///   - tracksHistory: record every save's changes in the store's persistent history (see
    ///     <doc:PersistentHistory>); `transactionAuthor` is the author of saves that name none.
    /// - Throws: ``GraphStoreError/storeUnavailable(path:reason:)``, ``GraphStoreError/incompatibleStore(_:)``,
    ///   ``GraphStoreError/migrationConstraintViolation(entity:attributes:duplicates:)``.
    public init(
        model: ManagedObjectModel, location: StoreLocation, busyTimeout: Double = 5, readOnly: Bool = false,
        tracksHistory: Bool = false, transactionAuthor: String? = nil
    ) throws(GraphStoreError) {
        self.model = model
        self.location = location
        executor = StoreExecutor(label: "GraphStore \(location.redactedDescription)")
        let interruption = ReadInterruption()
        self.interruption = interruption
        let store: any PersistentStore = if case .postgres(let conninfo) = location {
            try PostgresStore(model: model, conninfo: conninfo, readOnly: readOnly, interruption: interruption)
        } else {
            try SQLiteStore(model: model, location: location, busyTimeout: busyTimeout, readOnly: readOnly, interruption: interruption)
        }
        let tracked: any PersistentStore = tracksHistory
            ? try HistoryTrackingStore.opening(store, defaultAuthor: transactionAuthor, readOnly: readOnly) : store
        self.store = ObservedStore(tracked, broadcaster: broadcaster)
    }

    /// Ends every read of this container: the statements running now stop, and reads begun later
    /// fail at once, all with ``GraphStoreError/readFailed(_:)`` of kind
    /// ``StoreFailure/Kind/interrupted``. For a process that is stopping (a server's SIGTERM, which
    /// should not wait for a long scan); it cannot be undone. Writes are not touched.
    public func interruptReads() {
        interruption.interrupt()
    }

    /// The kind of store that lives at `location`.
    static func storeType(_ location: StoreLocation) -> any NamedLocking.Type {
        if case .postgres = location { PostgresStore.self } else { SQLiteStore.self }
    }

    /// A new context on the store. Use it from one task only.
    public func newContext(mergePolicy: MergePolicy = .error) -> ObjectContext {
        ObjectContext(container: self, parent: nil, mergePolicy: mergePolicy)
    }
}
