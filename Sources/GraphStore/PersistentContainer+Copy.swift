extension PersistentContainer {
    /// Copies every row of this store into `destination`, an empty store of the same model (a
    /// SQLite file into PostgreSQL, say), in one transaction there, from one snapshot here; as Core
    /// Data's `migratePersistentStore(_:to:)` does. Rows get new ids; relationships follow them.
    ///
    /// - Returns: the number of rows copied, by entity, as counted in `destination` afterwards.
    /// - Throws: `incompatibleStore` when the models differ or `destination` holds rows already
    ///   (nothing is written), or a store error (nothing is written either).
    @discardableResult
    public func copyContents(into destination: PersistentContainer) throws(GraphStoreError) -> [String: Int] {
        guard SchemaSnapshot(model: model) == SchemaSnapshot(model: destination.model) else {
            throw .incompatibleStore("the destination's model differs from the source's")
        }
        do {
            let rows = try store.read { reader in
                try Dictionary(uniqueKeysWithValues: model.entities.map { entity in
                    (entity.name, try reader.fetch(StoreQuery(entity: entity.name)))
                })
            }
            try destination.store.write(deferringForeignKeys: true) { writer in try Self.insert(rows, into: writer, model: model) }
            return try destination.store.read { reader in
                try Dictionary(uniqueKeysWithValues: model.entities.map { ($0.name, try reader.count(StoreQuery(entity: $0.name))) })
            }
        } catch let error as GraphStoreError {
            throw error
        } catch {
            throw .writeFailed(StoreFailure(message: "\(error)", resultCode: 0, extendedResultCode: 0))
        }
    }

    /// Inserts every row with its foreign keys empty, then points them at the new ids.
    private static func insert(_ rows: [String: [StoredRow]], into writer: any StoreWriter, model: ManagedObjectModel) throws {
        for entity in model.entities where try writer.count(StoreQuery(entity: entity.name)) > 0 {
            throw GraphStoreError.incompatibleStore("the destination is not empty (\(entity.name) holds rows)")
        }
        var newIDs: [String: [Int64: Int64]] = [:]
        for entity in model.entities {
            let keys = Set(entity.toOneRelationships.map(\.name))
            for row in rows[entity.name] ?? [] {
                let values = zip(entity.columns, row.values).map { column, value in keys.contains(column) ? .null : value }
                newIDs[entity.name, default: [:]][row.rowID] = try writer.insert(into: entity, values: values)
            }
        }
        for entity in model.entities {
            for relationship in entity.toOneRelationships {
                guard let column = entity.columns.firstIndex(of: relationship.name) else { continue }
                for row in rows[entity.name] ?? [] {
                    guard case .integer(let old) = row.values[column], let new = newIDs[relationship.destinationName]?[old],
                        let id = newIDs[entity.name]?[row.rowID]
                    else { continue }
                    try writer.update(entity, rowID: id, columns: [relationship.name], values: [.integer(new)])
                }
            }
        }
    }
}
