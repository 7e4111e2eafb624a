/// What an import did to the rows of one entity.
///
/// Each key counts once, by its first record in the session: `inserted` (absent before),
/// `updated` (stored before, and the session changed it), or `unchanged` (stored before, left as it
/// was); every later record with that key is `repeated`. A later record that changes a row counted
/// `unchanged` moves it to `updated`, so one save's `unchanged` can be negative; a session's totals
/// never are. `deleted` counts owners deleted because the import left them without members.
public struct ImportCounts: Sendable, Equatable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    public var repeated = 0
    public var deleted = 0

    public init() {}

    /// Every record counted: `inserted + updated + unchanged + repeated`.
    public var records: Int { inserted + updated + unchanged + repeated }

    static func += (total: inout ImportCounts, more: ImportCounts) {
        total.inserted += more.inserted
        total.updated += more.updated
        total.unchanged += more.unchanged
        total.repeated += more.repeated
        total.deleted += more.deleted
    }
}

/// What one ``ImportSession/save(_:)`` changed: the rows by entity, and the counts.
public struct ImportResult: Sendable, Equatable {
    public internal(set) var changes = ChangeSet()
    var counts: [String: ImportCounts] = [:]

    public func counts(_ type: ManagedObject.Type) -> ImportCounts { counts[type.cachedEntityName] ?? ImportCounts() }
}
