/// A to-many relationship of a ``ManagedObject``: one side of a one-to-many (the destinations hold
/// the foreign key) or of a many-to-many (a join table holds the pairs).
///
/// ```swift
/// final class Photographer: ManagedObject {
///     @ToMany(inverse: \Photo.$whoTook, deleteRule: .cascade) var photos: [Photo]   // one-to-many
/// }
/// final class Album: ManagedObject {
///     @ToMany(inverse: \Photo.$albums) var photos: [Photo]   // many-to-many, this side names the pair
/// }
/// final class Photo: ManagedObject {
///     @ToOne var whoTook: Photographer?
///     @ToMany(deleteRule: .nullify) var albums: [Album]      // the other side names no inverse
/// }
/// ```
/// The members load from the store on first read (one query). Adding or removing a member while
/// the relationship is not loaded is recorded and applied when it loads, so maintaining an
/// inverse never costs a query.
@propertyWrapper
public final class ToMany<Destination: ManagedObject>: AnyToManyStorage {
    let inverseKeyPath: AnyKeyPath?
    let deleteRule: DeleteRule
    let deletesOwnerWhenEmpty: Bool
    /// Whether the inverse is a to-many too (a join table stores the pairs).
    let isManyToMany: Bool
    /// Unowned, not weak: a weak reference would give every object a side table and put all its
    /// retains and releases on the runtime's slow path (a third of import time, measured).
    unowned(safe) var owner: ManagedObject?
    /// This relationship's slot in its owner (set when the owner is created).
    var slot = 0
    /// The members, once loaded (or known, for a new object).
    var members: ObjectList<Destination>?
    var pendingInserts = ObjectList<Destination>()
    var pendingRemovals = ObjectList<Destination>()
    /// Many-to-many only: the pairs linked and unlinked since the last save, for the next save's join rows.
    var joinChanges = JoinChanges<Destination>()
    /// Where ``hasLiveMember(besides:)`` may start during one delete propagation (see there).
    var liveScan = LiveMemberScan()

    /// Declares a to-many relationship whose inverse is the to-one `inverse` on the destination.
    ///
    /// With `deletesOwnerWhenEmpty`, a save that moves the last member away from an owner (a member's
    /// to-one now points elsewhere, or the member was deleted) deletes the owner in the same
    /// transaction. No hook runs for it; the change set lists it as deleted.
    public init<Source: ManagedObject>(
        inverse: KeyPath<Destination, ToOne<Source>>,
        deleteRule: DeleteRule = .nullify,
        deletesOwnerWhenEmpty: Bool = false
    ) {
        self.deletesOwnerWhenEmpty = deletesOwnerWhenEmpty
        self.inverseKeyPath = inverse
        self.deleteRule = deleteRule
        isManyToMany = false
    }

    /// Declares one side of a many-to-many relationship, naming the pair: its inverse is the to-many
    /// `inverse` on the destination, which is declared with ``init(deleteRule:)``. Each side has its
    /// own delete rule.
    public init<Source: ManagedObject>(inverse: KeyPath<Destination, ToMany<Source>>, deleteRule: DeleteRule = .nullify) {
        self.inverseKeyPath = inverse
        self.deleteRule = deleteRule
        deletesOwnerWhenEmpty = false
        isManyToMany = true
    }

    /// Declares the other side of a many-to-many relationship: the destination's to-many that names
    /// this one (`@ToMany(inverse: \Photo.$albums)`) is its inverse. (Swift cannot type-check two
    /// wrappers whose key paths name each other, so only one side names the pair.)
    public init(deleteRule: DeleteRule = .nullify) {
        inverseKeyPath = nil
        self.deleteRule = deleteRule
        deletesOwnerWhenEmpty = false
        isManyToMany = true
    }

    /// The members, loaded from the store on first read; setting replaces them, keeping inverses in step.
    public var wrappedValue: [Destination] {
        get { loaded() }
        set { replace(with: newValue) }
    }

    /// The relationship itself, for predicates (`.any(\.$photos, ...)`), `insert` and `remove`.
    public var projectedValue: ToMany<Destination> { self }

    /// Adds `object`: sets its inverse to-one to this relationship's owner, or, for a many-to-many,
    /// adds the owner to its inverse to-many.
    public func insert(_ object: Destination) {
        guard let owner else { return }
        if owner.isOrphaned { owner.orphanedUse("changed") }
        if isManyToMany { return link(object, owner: owner) }
        inverse(of: object).set(owner)
    }

    /// Removes `object`: clears its inverse to-one, or takes the owner out of its inverse to-many.
    public func remove(_ object: Destination) {
        guard let owner else { return }
        if owner.isOrphaned { owner.orphanedUse("changed") }
        if isManyToMany { return unlink(object, owner: owner) }
        guard inverse(of: object).anyDestination === owner else { return }
        inverse(of: object).set(nil)
    }

    func replace(with newMembers: [Destination]) {
        let current = loaded()
        for old in current where !newMembers.contains(where: { $0 === old }) { remove(old) }
        for new in newMembers where !current.contains(where: { $0 === new }) { insert(new) }
    }

    private func inverse(of object: Destination) -> any AnyToOneStorage {
        object[keyPath: inverseKeyPath!] as! any AnyToOneStorage
    }

    /// The members, loading them on first use. A failed load (an unreadable store) answers the
    /// members known in memory and is retried on the next read; saves use ``loadedMembers()``,
    /// which throws instead.
    func loaded() -> [Destination] {
        (try? loadedOrThrow()) ?? pendingInserts.elements
    }

    private func loadedOrThrow() throws -> [Destination] {
        if members != nil {
            members!.compact()
            return members!.elements
        }
        var stored: [Destination] = []
        if let owner, let rowID = owner.rowID, let context = owner.context {
            stored = isManyToMany ? try context.linkedMembers(Destination.self, of: owner.entity, slot: slot, ownerRowID: rowID)
                                  : try context.members(Destination.self, inverse: inverseKeyPath!, ownerRowID: rowID)
        }
        return settle(stored)
    }

    /// Becomes loaded with `stored`, the members the store holds, and this context's pending
    /// additions and removals applied on top.
    private func settle(_ stored: [Destination]) -> [Destination] {
        liveScan = LiveMemberScan()
        var loaded = ObjectList(stored)
        for removed in pendingRemovals.elements { loaded.remove(removed) }
        for added in pendingInserts.elements { loaded.append(added) }
        pendingInserts = ObjectList()
        pendingRemovals = ObjectList()
        members = loaded
        return loaded.elements
    }

    // MARK: - AnyToManyStorage

    static var destinationType: ManagedObject.Type { Destination.self }
    var declaredDeleteRule: DeleteRule { deleteRule }
    var declaredDeletesOwnerWhenEmpty: Bool { deletesOwnerWhenEmpty }
    var declaredInverse: AnyKeyPath? { inverseKeyPath }
    var anyMembers: [ManagedObject] { loaded() }
    func loadedMembers() throws -> [ManagedObject] { try loadedOrThrow() }
    var isLoaded: Bool { members != nil }

    func load(stored: [ManagedObject]) {
        guard members == nil else { return }
        // Stored members are the destination entity's own class: checked by identity, then
        // converted without a dynamic cast each (`as?` was half of loading many lists at once).
        _ = settle(stored.compactMap { type(of: $0) == Destination.self ? unsafeDowncast($0, to: Destination.self) : $0 as? Destination })
    }

    func primitiveInsert(_ object: ManagedObject) {
        guard let object = object as? Destination else { return }
        if members != nil {
            members!.append(object)
        } else {
            pendingRemovals.remove(object)
            pendingInserts.append(object)
        }
    }

    func primitiveRemove(_ object: ManagedObject) {
        guard let object = object as? Destination else { return }
        liveScan = LiveMemberScan()
        if members != nil {
            members!.remove(object)
        } else {
            pendingInserts.remove(object)
            pendingRemovals.append(object)
        }
    }

    func markKnownEmpty() {
        members = pendingInserts
        pendingInserts = ObjectList()
    }

    func becomeFault() {
        liveScan = LiveMemberScan()
        guard let members else { return }
        pendingInserts = members
        pendingRemovals = ObjectList()
        self.members = nil
    }

    func refault(keeping additions: [ManagedObject], removing removals: [ManagedObject]) {
        liveScan = LiveMemberScan()
        guard members != nil else { return }
        members = nil
        pendingInserts = ObjectList(additions.compactMap { $0 as? Destination })
        pendingRemovals = ObjectList(removals.compactMap { $0 as? Destination })
    }

    func unload() {
        liveScan = LiveMemberScan()
        members = nil
        pendingInserts = ObjectList()
        pendingRemovals = ObjectList()
        joinChanges = JoinChanges()
    }

    func bind(to owner: ManagedObject, slot: Int) {
        self.owner = owner
        self.slot = slot
    }
}
