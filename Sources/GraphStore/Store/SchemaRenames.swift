/// The renames a model declares (Core Data's `renamingIdentifier`: ``ManagedObject/renamedFrom``
/// and ``AttributeOption/renamed(from:)``), resolved against the schema a store holds.
///
/// A migration applies them first, in its transaction (`ALTER TABLE ... RENAME`, the indexes
/// recreated under their new names), then migrates from the renamed schema as from any other: so
/// a version that renames and a later one that adds migrate in one step. A rename the stored schema
/// already has is skipped. One from a name it lacks adds the attribute, as Core Data does (the store
/// predates it), unless the same migration would drop one of the table's columns: a likely typo,
/// whose data would be lost, is refused. A rename to a name the store already holds is refused.
struct SchemaRenames {
    /// One table's renames: its former name (or nil) and its columns' (new → old).
    struct Table {
        var name: String
        var from: String?
        var columns: [String: String]
        /// The columns the model gives the table (attributes and to-ones, by their new names).
        var modelColumns: Set<String> = []
        /// A join table's rename follows from its sides': applied when the store holds the old one.
        var isDerived = false
    }

    /// The renames one stored schema needs, found by ``resolve(_:)``.
    struct Resolution {
        /// Each renamed table's stored form, and its rename.
        var tables: [(stored: SchemaSnapshot.Table, rename: Table)] = []

        /// The stored table and column names behind a current table's (for queries before the renames run).
        func storedNames(_ table: String, _ columns: [String]) -> (String, [String]) {
            guard let (stored, rename) = tables.first(where: { $0.rename.name == table }) else { return (table, columns) }
            return (stored.name, columns.map { rename.columns[$0] ?? $0 })
        }
    }

    let tables: [Table]

    init(model: ManagedObjectModel) {
        let entityRenames = Dictionary(uniqueKeysWithValues: model.entities.compactMap { e in e.renamedFrom.map { (e.name, $0) } })
        tables = model.storedEntities.compactMap { entity in
            entity.isJoin ? Self.joinRename(entity, entityRenames) : Self.rename(entity)
        }
    }

    private static func rename(_ entity: EntityDescription) -> Table? {
        var columns: [String: String] = [:]
        for attribute in entity.storedAttributes { columns[attribute.name] = attribute.renamedFrom }
        for relationship in entity.toOneRelationships { columns[relationship.name] = relationship.renamedFrom }
        guard entity.renamedFrom != nil || !columns.isEmpty else { return nil }
        let modelColumns = Set(entity.storedAttributes.map(\.name) + entity.toOneRelationships.map(\.name))
        return Table(name: entity.name, from: entity.renamedFrom, columns: columns, modelColumns: modelColumns)
    }

    /// A join table is named after its naming side's entity, and its columns after both entities.
    private static func joinRename(_ entity: EntityDescription, _ entityRenames: [String: String]) -> Table? {
        let sides = entity.toOneRelationships.map(\.destinationName)
        var columns: [String: String] = [:]
        for (column, side) in zip(entity.columns, sides) where column == side { columns[column] = entityRenames[side] }
        let from = entityRenames[sides[0]].map { $0 + entity.name.dropFirst(sides[0].count) }
        guard from != nil || !columns.isEmpty else { return nil }
        return Table(name: entity.name, from: from, columns: columns, isDerived: true)
    }

    /// The renames `stored` still needs; throws `incompatibleStore` for one it cannot take.
    func resolve(_ stored: SchemaSnapshot) throws -> Resolution {
        var resolution = Resolution()
        for rename in tables {
            guard let (table, from) = try storedTable(of: rename, in: stored) else { continue }
            var columns: [String: String] = [:]
            for (new, old) in rename.columns {
                let hasNew = table.columns.contains { $0.name == new }, hasOld = table.columns.contains { $0.name == old }
                if hasNew && hasOld {
                    throw GraphStoreError.incompatibleStore("cannot rename \(table.name).\(old) to \(new): the store already holds \(table.name).\(new)")
                }
                if hasOld { columns[new] = old }
                else if !hasNew && !rename.isDerived, let dropped = droppedColumn(of: table, by: rename) {
                    throw GraphStoreError.incompatibleStore(
                        "\(rename.name).\(new) is renamed from \(old), but the store (version \(stored.version)) holds no "
                            + "\(table.name).\(old), and the migration would drop \(table.name).\(dropped): is the former name right?")
                }
            }
            if from != nil || !columns.isEmpty {
                resolution.tables.append((table, Table(name: rename.name, from: from, columns: columns)))
            }
        }
        return resolution
    }

    /// A stored column of `table` the model neither declares nor renames: the migration drops it.
    private func droppedColumn(of table: SchemaSnapshot.Table, by rename: Table) -> String? {
        let renamedFrom = Set(rename.columns.values)
        return table.columns.map(\.name).first { !rename.modelColumns.contains($0) && !renamedFrom.contains($0) }
    }

    /// The stored table a rename starts from and its former name if the table itself is renamed;
    /// nil for a table the store does not hold yet (a new entity's renamed attributes have no data).
    private func storedTable(of rename: Table, in stored: SchemaSnapshot) throws -> (SchemaSnapshot.Table, String?)? {
        let current = stored.table(named: rename.name)
        guard let old = rename.from else { return current.map { ($0, nil) } }
        let former = stored.table(named: old)
        switch (current, former) {
        case (let current?, nil): return (current, nil)
        case (_?, _?) where !rename.isDerived:
            throw GraphStoreError.incompatibleStore("cannot rename the entity \(old) to \(rename.name): the store already holds \(rename.name)")
        case (nil, let former?): return (former, old)
        case (nil, nil) where !rename.isDerived:
            throw GraphStoreError.incompatibleStore(
                "the entity \(rename.name) is renamed from \(old), but the store (version \(stored.version)) holds no entity \(old)")
        default: return nil
        }
    }
}
