/// The type-erased face of ``ToMany``.
protocol AnyToManyStorage: AnyObject {
    static var destinationType: ManagedObject.Type { get }
    var declaredDeleteRule: DeleteRule { get }
    var declaredDeletesOwnerWhenEmpty: Bool { get }
    var declaredInverse: AnyKeyPath? { get }
    var isManyToMany: Bool { get }
    var anyMembers: [ManagedObject] { get }
    /// The members, loading them if needed; throws when the store cannot be read.
    func loadedMembers() throws -> [ManagedObject]
    /// Whether the members are in memory (a read loads nothing).
    var isLoaded: Bool { get }
    /// Loads the members from `stored`, the rows the store holds, read by the caller for many
    /// owners at once (``ObjectContext/loadMembers(of:_:)``); nothing when already loaded.
    func load(stored: [ManagedObject])
    func primitiveInsert(_ object: ManagedObject)
    func primitiveRemove(_ object: ManagedObject)
    /// For a new object: the members are exactly those added so far.
    func markKnownEmpty()
    /// For an object that took over a stored row: its known members become pending additions to
    /// the row's stored members, which load on next read.
    func becomeFault()
    /// Forgets the members and unsaved join changes (rollback, a context going away): they load again on next read.
    func unload()
    /// Lets loaded members load again on next read, with pending additions and removals of this
    /// context's unsaved changes applied on top (a refresh).
    func refault(keeping additions: [ManagedObject], removing removals: [ManagedObject])
    func bind(to owner: ManagedObject, slot: Int)
    // Many-to-many (see ToMany+ManyToMany.swift).
    var linkedSinceSave: [ManagedObject] { get }
    var unlinkedSinceSave: [ManagedObject] { get }
    func link(_ object: ManagedObject)
    func unlink(_ object: ManagedObject)
    func recordJoinChange(_ object: ManagedObject, linked: Bool)
    func forgetJoinChange(_ object: ManagedObject)
    /// After a save (or a child's push): the join changes are stored.
    func commitJoinChanges()
    /// Lets the members load again on next read, with this context's unsaved join changes on top.
    func refaultLinks()
}
