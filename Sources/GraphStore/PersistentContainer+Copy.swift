extension PersistentContainer {
    /// Copies every row of this store into `destination`, an empty store of the same model (a
    /// SQLite file into PostgreSQL, say), in one transaction there, from one snapshot here; as Core
    /// Data's `migratePersistentStore(_:to:)` does. Rows get new ids; relationships follow them.
    ///
    /// `convertingText` rewrites every text value on its way (a rule the destination's writers
    /// keep too, such as a feed's NUL → U+FFFD, which PostgreSQL needs).
    ///
    /// Persistent history is copied with its tokens, followed by one transaction of `author` (the
    /// copy's rows are not listed as changes).
    ///
    /// - Returns: the number of rows copied, by entity, as counted in `destination` afterwards.
    /// - Throws: `incompatibleStore` when the models differ or `destination` holds rows already
    ///   or history already (nothing is written), or a store error (nothing is written either).
    @discardableResult
    public func copyContents(
        into destination: PersistentContainer, author: String? = nil, convertingText convert: (@Sendable (String) -> String)? = nil
    ) throws(GraphStoreError) -> [String: Int] {
        guard SchemaSnapshot(model: model) == SchemaSnapshot(model: destination.model) else {
            throw .incompatibleStore("the destination's model differs from the source's")
        }
        do {
            let (rows, history) = try store.read { reader in
                (try Dictionary(uniqueKeysWithValues: model.storedEntities.map { entity in
                    (entity.name, try reader.fetch(StoreQuery(entity: entity.name)))
                }), try CopiedHistory.read(reader))
            }
            try destination.unrecordedStore.write(deferringForeignKeys: true) { writer in
                // The destination is empty: its indexes built after imports are built once, at the end.
                let later = IndexesAfterImport(model: model)
                let suspended = try later.suspend(writer.schema)
                try Self.insert(rows, into: writer, model: model, convert: convert)
                try later.build(suspended, writer.schema)
                try CopiedHistory.write(history, into: writer, author: author)
            }
            return try destination.store.read { reader in
                try Dictionary(uniqueKeysWithValues: model.storedEntities.map { ($0.name, try reader.count(StoreQuery(entity: $0.name))) })
            }
        } catch let error as GraphStoreError {
            throw error
        } catch {
            throw .writeFailed(StoreFailure(kind: .other, message: "\(error)"))
        }
    }

    /// Inserts every row, its foreign keys pointing at the new ids of rows copied before it (a
    /// join table's, after both its entities); a key whose destination comes later is filled in
    /// once every row is there.
    private static func insert(
        _ rows: [String: [StoredRow]], into writer: any StoreWriter, model: ManagedObjectModel, convert: ((String) -> String)?
    ) throws {
        for entity in model.storedEntities where try writer.count(StoreQuery(entity: entity.name)) > 0 {
            throw GraphStoreError.incompatibleStore("the destination is not empty (\(entity.name) holds rows)")
        }
        var newIDs: [String: [Int64: Int64]] = [:]
        var pending: [(EntityDescription, rowID: Int64, column: String, old: Int64)] = []
        for entity in model.storedEntities {
            let keys = Dictionary(uniqueKeysWithValues: entity.toOneRelationships.map { ($0.name, $0.destinationName) })
            // Every row is new: the store may send them set-based (PostgreSQL does).
            try writer.writingInBatch(entity, inserts: rows[entity.name]?.count ?? 0) {
                for row in rows[entity.name] ?? [] {
                    var later: [(String, Int64)] = []
                    let values = zip(entity.columns, row.values).map { column, value -> StoredValue in
                        if let convert, case .text(let text) = value { return .text(convert(text)) }
                        guard let destination = keys[column], case .integer(let old) = value else { return value }
                        if let new = newIDs[destination]?[old] { return .integer(new) }
                        later.append((column, old))
                        return .null
                    }
                    let id = try writer.insert(into: entity, values: values)
                    newIDs[entity.name, default: [:]][row.rowID] = id
                    pending += later.map { (entity, id, $0.0, $0.1) }
                }
            }
        }
        for entity in model.storedEntities {
            let fixes = pending.filter { $0.0 === entity }
            guard !fixes.isEmpty else { continue }
            try writer.writingInBatch(entity, inserts: 0) {
                for (entity, id, column, old) in fixes {
                    guard let destination = entity.toOneRelationships.first(where: { $0.name == column })?.destinationName,
                        let new = newIDs[destination]?[old]
                    else { continue }
                    try writer.update(entity, rowID: id, columns: [column], values: [.integer(new)])
                }
            }
        }
    }
}
