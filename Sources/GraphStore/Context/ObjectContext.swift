/// A unit of work: the objects it inserted or fetched, their pending changes, and `save()`.
///
/// One row is one object instance within a context. A context is not `Sendable`: use it from the
/// task that made it (``PersistentContainer/performBackgroundTask(mergePolicy:_:)`` gives a task its own).
///
/// ```swift
/// let context = container.newContext(mergePolicy: .objectTrump)
/// let photo = context.insert(Photo.self)
/// photo.unique = "53412345678"
/// try context.save()
/// ```
public final class ObjectContext {
    public let container: PersistentContainer
    /// The parent a child context saves into; nil for a context on the store.
    public let parent: ObjectContext?
    public var mergePolicy: MergePolicy
    /// Keeps every object the context loaded until it is reset or freed (Core Data's flag of that
    /// name). Off by default: objects without unsaved changes that nothing else holds are let go
    /// as the context grows, and built again if fetched again. On suits code that re-reads the
    /// same objects many times and can afford the memory.
    public var retainsRegisteredObjects = false
    /// The author persistent history records for this context's saves (else the container's).
    public var transactionAuthor: String?
    /// A name for the context, recorded with its saves in persistent history.
    public var name: String?

    var registered: [ObjectID: ManagedObject] = [:]
    var insertedObjects: [ManagedObject] = []
    var updatedObjects: [ManagedObject] = []
    var deletedObjects: [ManagedObject] = []
    /// Updates of stored rows this context does not hold (``update(_:_:)``), for the next save.
    var rowUpdates: [RowUpdate] = []
    /// To-ones set by ID (``ToOne/destinationID``) to rows not loaded as objects: resolved when such
    /// a row is loaded, so its to-many lists them before the save too. Cleared by save and rollback.
    var pointers: [ObjectID: [(owner: ManagedObject, slot: Int)]] = [:]
    /// In a child context: each object it inserted and pushed → its copy in the parent, which later
    /// pushes of the object's changes and delete go to.
    var pushedCopies: [ObjectID: ManagedObject] = [:]
    /// The registry size at which the next fetch lets go of unused objects (``releaseUnusedObjects()``).
    var releaseThreshold = ObjectContext.minimumReleaseThreshold
    /// Nonzero while ``propagateDeletes(_:)`` runs: that run's number, under which objects only
    /// ever become deleted (see ``ToMany/hasLiveMember(besides:)``).
    var deletePass: UInt64 = 0
    /// The last ``deletePass`` given out.
    var deletePasses: UInt64 = 0
    /// The current delete pass's deleted objects by the rows they pointed at.
    var deletedMembers = DeletedMembers()

    func notePointer(from owner: ManagedObject, slot: Int, to id: ObjectID) {
        pointers[id, default: []].append((owner, slot))
    }

    /// The object registered for `id`: loaded from the store, or inserted here.
    func registeredObject(_ id: ObjectID) -> ManagedObject? {
        registered[id] ?? (id.isTemporary ? insertedObjects.first { $0.objectID == id } : nil)
    }

    private var observers: [(ChangeSet) -> Void] = []
    /// The store reader of an enclosing ``readingOneSnapshot(_:)``, shared by the reads inside it.
    private(set) var snapshotReader: (any StoreReader)?

    init(container: PersistentContainer, parent: ObjectContext?, mergePolicy: MergePolicy) {
        self.container = container
        self.parent = parent
        self.mergePolicy = mergePolicy
    }

    var store: any PersistentStore { container.store }

    /// Runs `body` so that every fetch and count in it reads the same state of the store (one read
    /// transaction), however many saves other connections commit meanwhile.
    ///
    /// ```swift
    /// try context.readingOneSnapshot {
    ///     let counts = try context.memberCounts(\Photographer.$photos)
    ///     let photographers = try context.fetch(FetchRequest<Photographer>())  // consistent with counts
    /// }
    /// ```
    public func readingOneSnapshot<T>(_ body: () throws -> T) throws -> T {
        if snapshotReader != nil { return try body() }
        return try store.read { reader in
            snapshotReader = reader
            defer { snapshotReader = nil }
            return try body()
        }
    }

    /// Runs `body` with every fetch and count reading through `reader` (a transaction already open).
    func reading<T>(through reader: any StoreReader, _ body: () throws -> T) rethrows -> T {
        let enclosing = snapshotReader
        snapshotReader = reader
        defer { snapshotReader = enclosing }
        return try body()
    }

    /// Reads through the enclosing snapshot if any, else in a read transaction of its own.
    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        if let snapshotReader { return try body(snapshotReader) }
        return try store.read(body)
    }

    /// Objects point at each other (a photo at its photographer, the photographer at its photos);
    /// when the context goes, those cycles are cut so its objects are freed with it. An object
    /// kept beyond its context keeps its attribute values; its relationships read as empty.
    deinit {
        for object in registered.values { object.detachFromGraph() }
        for object in insertedObjects + updatedObjects + deletedObjects { object.detachFromGraph() }
    }

    // MARK: - Changes

    /// Whether anything was inserted, changed or deleted since the last save or rollback.
    public var hasChanges: Bool {
        !insertedObjects.isEmpty || !updatedObjects.isEmpty || !deletedObjects.isEmpty || !rowUpdates.isEmpty
    }

    /// Inserts a new object of `type`; ``ManagedObject/awakeFromInsert()`` has run when it returns.
    @discardableResult
    public func insert<T: ManagedObject>(_ type: T.Type = T.self) -> T {
        let object = T()
        insert(object)
        return object
    }

    /// Inserts a new, detached object. Unique constraints are checked at save, not here.
    public func insert(_ object: ManagedObject) {
        insert(object, awake: true)
    }

    /// Inserts without `awakeFromInsert` when the object already woke in another context (a child's save).
    func insert(_ object: ManagedObject, awake: Bool) {
        if object.isOrphaned { object.orphanedUse("inserted") }
        precondition(object.state == .detached, "\(object.objectID) is already in a context")
        precondition(container.model.entities.contains { $0 === object.entity },
                     "\(object.entity.name) is not an entity of this store's model (add it to ManagedObjectModel's entities)")
        object.context = self
        object.state = .inserted
        object.forEachToMany { $0.markKnownEmpty() }
        insertedObjects.append(object)
        guard awake else { return }
        object.awakeFromInsert()
        object.forEachAttribute { $0.clearAssignment() }
    }

    /// Marks `object` for deletion. Delete rules and ``ManagedObject/prepareForDeletion()`` run at save.
    public func delete(_ object: ManagedObject) {
        if object.isOrphaned { object.orphanedUse("deleted") }
        precondition(object.context === self, "\(object.objectID) belongs to another context (or to none): delete it in its own context")
        switch object.state {
        case .deleted, .detached, .discarded: return
        case .inserted: insertedObjects.removeAll { $0 === object }
        case .updated: updatedObjects.removeAll { $0 === object }
        case .clean: break
        }
        object.state = .deleted
        deletedObjects.append(object)
    }

    func objectDidChange(_ object: ManagedObject) {
        updatedObjects.append(object)
    }

    /// Calls `observer` with the change set after every successful save of this context.
    public func onDidSave(_ observer: @escaping (ChangeSet) -> Void) {
        observers.append(observer)
    }

    func notify(_ changes: ChangeSet) {
        for observer in observers { observer(changes) }
    }

    // MARK: - Rollback

    /// Discards every unsaved change: inserted objects leave the context, deleted ones come back,
    /// changed ones take their last saved values again.
    public func rollback() {
        for object in insertedObjects {
            object.state = .detached
            object.context = nil
            forgetLinks(of: object)
        }
        for object in updatedObjects + deletedObjects where object.rowID != nil {
            object.state = .clean
            revertProperties(of: object)
        }
        for object in deletedObjects where object.rowID == nil {
            object.state = .detached
            object.context = nil
        }
        for object in registered.values { unloadToMany(of: object) }
        clearPendingChanges()
    }

    /// Forgets every pending change: after a save has written them, or a rollback has undone them.
    func clearPendingChanges() {
        insertedObjects = []
        updatedObjects = []
        deletedObjects = []
        rowUpdates = []
        pointers = [:]
    }

    private func revertProperties(of object: ManagedObject) {
        object.forEachAttribute { $0.revert() }
        object.forEachToOne { $0.revert() }
    }

    private func unloadToMany(of object: ManagedObject) {
        object.forEachToMany { $0.unload() }
    }
}
