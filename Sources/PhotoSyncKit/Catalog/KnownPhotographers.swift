import GraphStore

/// The photographers an importer's own saves have committed or read, by name, so that a later
/// page reads only the names it has not met (on a first import most pages repeat earlier names,
/// and their read was 6% of the import).
///
/// Only fetches insert photographers or change their owner ids, one fetch at a time (the fetch
/// lock), and the importer records every change its own saves make: rows inserted, owner ids
/// written, rows deleted. A `delete` between two pages may remove a remembered photographer; the
/// save then fails on its foreign key and the importer runs the page again, reading every name
/// (see ``PageImporter/importPage(_:dryRun:expectingNewPhotos:)``). Bounded: past `capacity` names
/// it starts over.
final class KnownPhotographers {
    struct Row {
        let id: ObjectID
        /// The stored owner id; nil when the page read did not ask for it (store-trump never
        /// changes a stored one).
        let ownerID: String?
    }

    private static let capacity = 50_000
    /// Keyed by the name's bytes, as the unique index compares names.
    private var rows: [StoredValue: Row] = [:]

    var isEmpty: Bool { rows.isEmpty }

    func row(named name: String) -> Row? { rows[.text(name)] }

    func remember(_ name: String, _ row: Row) {
        if rows.count >= Self.capacity { rows.removeAll(keepingCapacity: true) }
        rows[.text(name)] = row
    }

    func removeAll() { rows.removeAll() }

    /// Forgets the photographers a save deleted (a page that moved their last photo elsewhere).
    func forget(_ deleted: Set<ObjectID>) {
        guard !deleted.isEmpty else { return }
        rows = rows.filter { !deleted.contains($0.value.id) }
    }
}
