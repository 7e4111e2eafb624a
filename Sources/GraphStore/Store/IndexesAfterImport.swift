/// The indexes a model declares ``AttributeOption/indexedAfterImport``. An import session that
/// begins on an empty table drops them and builds them once at its end, one sorted pass, instead
/// of inserting every key into a growing B-tree: keys in random order dirty a page each, so a
/// 100k-row first import of titles' sort keys cost SQLite 0.45 s of CPU with the index kept and
/// 0.15 s with it built after (0.11 s without it).
///
/// A process killed in between leaves them missing: a read-only open goes without them (slower
/// sorts, the same results) and the next writable open builds them (``StoreMigrator``).
struct IndexesAfterImport {
    struct Index {
        let table: SchemaSnapshot.Table
        let columns: [String]
    }

    let declared: [Index]

    /// `snapshot`: the model's, when the caller has it already.
    init(model: ManagedObjectModel, snapshot: SchemaSnapshot? = nil) {
        let snapshot = snapshot ?? SchemaSnapshot(model: model)
        declared = model.storedEntities.flatMap { entity in
            entity.indexesAfterImport.compactMap { columns in snapshot.table(named: entity.name).map { Index(table: $0, columns: columns) } }
        }
    }

    /// Runs `body`, an import, with the declared indexes of the empty tables dropped, and builds
    /// them when it ends, however it ends. A failed build (a full disk, say) is left to the next
    /// writable open: the import's rows are what matter here.
    func deferring<R>(in store: any PersistentStore, _ body: () throws -> R) throws -> R {
        guard !declared.isEmpty else { return try body() }
        let suspended = try store.write(deferringForeignKeys: false) { try suspend($0.schema) }
        defer { if !suspended.isEmpty { _ = try? store.write(deferringForeignKeys: false) { try build(suspended, $0.schema) } } }
        return try body()
    }

    /// The declared indexes of `table`, as column lists (a read-only open does without them).
    func columns(of table: String) -> [[String]] {
        declared.filter { $0.table.name == table }.map(\.columns)
    }

    /// Drops the declared indexes of the tables that hold no row, and returns them.
    func suspend(_ db: any SchemaConnection) throws -> [Index] {
        var dropped: [Index] = []
        for index in declared where try db.fetchRows("SELECT 1 FROM \(SQL.quote(index.table.name)) LIMIT 1", []).isEmpty {
            try db.execute(index.table.dropIndexSQL(index.columns, unique: false))
            dropped.append(index)
        }
        return dropped
    }

    /// Builds those of `indexes` the store lacks (another writable open may have built one).
    func build(_ indexes: [Index], _ db: any SchemaConnection) throws {
        // PostgreSQL refuses CREATE INDEX on a table with deferred foreign-key checks pending
        // (55006), as a copy's are: they run first.
        if !indexes.isEmpty, db.dialect == .postgres { try db.execute("SET CONSTRAINTS ALL IMMEDIATE") }
        for index in indexes { try db.execute(index.table.createIndexSQL(index.columns, unique: false, db.dialect, ifNotExists: true)) }
        // A table just filled has no statistics on PostgreSQL until autovacuum's next pass, and
        // its planner guesses meanwhile (a range of ids read as a sequential scan: 140 ms on 1M).
        guard db.dialect == .postgres else { return }
        for table in Set(indexes.map(\.table.name)).sorted() { try db.execute("ANALYZE " + SQL.quote(table)) }
    }

    /// The declared indexes `catalog` lacks.
    func missing(in catalog: CatalogSchema) -> [Index] {
        declared.filter { index in !(catalog.indexes[index.table.name] ?? []).contains { $0.columns == index.columns } }
    }
}
