internal import GRDB

/// Creates a new store's schema, or brings an older one up to the model by lightweight migration.
///
/// Lightweight means: new entities, new optional or defaulted attributes, new to-one relationships,
/// new indexes, new unique constraints (after checking the stored rows obey them), removed
/// attributes (their columns dropped), removed entities (their tables dropped, when no remaining
/// table refers to them), and new or removed many-to-many relationships (their join tables
/// created or dropped), and renames a model declares (``SchemaRenames``). Anything else, and any store written by a newer model,
/// stops with ``GraphStoreError/incompatibleStore(_:)``. A store of an earlier storage format
/// (``SchemaSnapshot/format``) has its values converted in the same transaction. Everything runs
/// in the caller's transaction, so a failure leaves the file as it was.
struct StoreMigrator {
    static let metadataTable = "graphstore_metadata"
    let model: ManagedObjectModel

    /// Checks a file with a read-only connection before the store opens it for writing, so that
    /// a file we must refuse is never modified (not even switched to WAL).
    ///
    /// - Returns: whether the store needs ``prepare(_:)`` (a new file, or an older model's); a
    ///   current store opens without taking the write lock, so readers never wait on a fetch here.
    static func checkCompatibility(path: String, model: ManagedObjectModel, busyTimeout: Double) throws -> Bool {
        // A missing or empty file holds nothing to protect; and a connection opened on it would
        // stop another process that is creating it from switching it to WAL.
        guard let size = FileManagerProbe.size(path), size > 0 else { return true }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        let leftovers = WALLeftovers(path: path)
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in try needsPreparation(SQLiteSchemaConnection(db: db), model: model) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
            // A writer killed mid-transaction left a hot journal (or a WAL index to rebuild) that only
            // a writable connection may roll back, restoring the last committed state: check on one.
            // The open that follows is writable anyway.
            configuration.readonly = false
            let writer = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? writer.close() }
            return try writer.read { db in try needsPreparation(SQLiteSchemaConnection(db: db), model: model) }
        } catch {
            leftovers.remove()
            throw error
        }
    }

    /// Whether a store needs ``prepare(_:)``; throws every refusal a migration would make, read-only.
    static func needsPreparation(_ db: any SchemaConnection, model: ManagedObjectModel) throws -> Bool {
        let current = SchemaSnapshot(model: model)
        let later = IndexesAfterImport(model: model, snapshot: current)
        if try storedSchemaText(db) == current.encoded() {
            // An import killed before building its indexes left them missing: a writable open builds them.
            return !later.missing(in: try SchemaVerifier(db: db).verify(current, allowing: later)).isEmpty
        }
        if let stored = try storedSnapshot(db) {
            let migrator = StoreMigrator(model: model)
            try migrator.checkVersion(stored)
            try SchemaVerifier(db: db).verify(stored, allowing: later)
            // Opening the store for writing modifies the file (GRDB's WAL setup commits a
            // CREATE/DROP TABLE), so every refusal a migration can make is found here, read-only.
            let upgraded = stored.upgradingFormat(to: current).snapshot
            if upgraded.version < current.version {
                let renames = try SchemaRenames(model: model).resolve(upgraded)
                try migrator.checkMigration(from: renames.applied(to: upgraded), to: current, db, renames: renames)
            }
        } else if try db.tableExists(metadataTable) == false, try !db.userTables().isEmpty {
            throw GraphStoreError.incompatibleStore("\(db.dialect.storePlace) holds tables but is not a GraphStore store")
        }
        return true
    }

    private static func storedSchemaText(_ db: any SchemaConnection) throws -> String? {
        guard try db.tableExists(metadataTable) else { return nil }
        return try db.fetchText("SELECT value FROM \(metadataTable) WHERE key = 'schema'")
    }

    /// For a read-only open: the store must already hold exactly this model (nothing may be created
    /// or migrated without writing).
    func checkCurrent(_ db: any SchemaConnection) throws {
        let current = SchemaSnapshot(model: model)
        let later = IndexesAfterImport(model: model, snapshot: current)
        if try Self.storedSchemaText(db) == current.encoded() {
            try SchemaVerifier(db: db).verify(current, allowing: later)
            return
        }
        guard let stored = try Self.storedSnapshot(db) else {
            throw GraphStoreError.incompatibleStore("\(db.dialect.storePlace) holds no GraphStore store yet")
        }
        try checkVersion(stored)
        let (upgraded, legacyDates) = stored.upgradingFormat(to: current)
        if upgraded == current {
            // Only the format differs: readable as it is unless dates must be converted.
            guard legacyDates.isEmpty else {
                throw GraphStoreError.incompatibleStore("dates are stored in GraphStore's former encoding; open it for writing once to migrate")
            }
            try SchemaVerifier(db: db).verify(stored, allowing: later)
            return
        }
        throw GraphStoreError.incompatibleStore("written by an older model (version \(stored.version)); open it for writing once to migrate")
    }

    func prepare(_ db: any SchemaConnection) throws {
        let current = SchemaSnapshot(model: model)
        guard let stored = try Self.storedSnapshot(db) else {
            guard try db.userTables().isEmpty else {
                throw GraphStoreError.incompatibleStore("\(db.dialect.storePlace) holds tables but is not a GraphStore store")
            }
            try create(current, db)
            return
        }
        try checkVersion(stored)
        let (upgraded, legacyDates) = stored.upgradingFormat(to: current)
        try convertLegacyDates(legacyDates, db)
        if upgraded.version < current.version {
            try migrate(from: upgraded, to: current, db)
        } else if upgraded.format != stored.format {
            try saveSnapshot(current, db)
        }
        let later = IndexesAfterImport(model: model, snapshot: current)
        try later.build(later.missing(in: try db.catalogSchema()), db)
    }

    private func checkVersion(_ stored: SchemaSnapshot) throws {
        let current = SchemaSnapshot(model: model)
        if stored.version > current.version || (stored.format ?? 1) > SchemaSnapshot.currentFormat {
            throw GraphStoreError.incompatibleStore("written by a newer model (version \(stored.version)); this program knows version \(current.version)")
        }
        if stored.version == current.version && stored.upgradingFormat(to: current).snapshot != current {
            throw GraphStoreError.incompatibleStore("the model changed but its version (\(current.version)) did not; bump the version to migrate")
        }
    }

    private func create(_ schema: SchemaSnapshot, _ db: any SchemaConnection) throws {
        try db.execute("CREATE TABLE \(Self.metadataTable) (key TEXT PRIMARY KEY, value TEXT NOT NULL)" + (db.dialect == .sqlite ? " STRICT" : ""))
        if db.dialect == .postgres { for function in PostgresFunctions.definitions { try db.execute(function) } }
        try createTables(schema.tables, db)
        try saveSnapshot(schema, db)
    }

    /// Creates `tables`; on PostgreSQL their foreign keys follow, once every table exists.
    private func createTables(_ tables: [SchemaSnapshot.Table], _ db: any SchemaConnection) throws {
        for table in tables { try createTable(table, db) }
        guard db.dialect == .postgres else { return }
        for table in tables {
            for column in table.columns where column.references != nil { try db.execute(table.foreignKeySQL(column)) }
        }
    }

    private func createTable(_ table: SchemaSnapshot.Table, _ db: any SchemaConnection) throws {
        try db.execute(table.createSQL(db.dialect))
        for columns in table.uniqueConstraints { try db.execute(table.createIndexSQL(columns, unique: true, db.dialect)) }
        for columns in table.indexes { try db.execute(table.createIndexSQL(columns, unique: false, db.dialect)) }
    }

    /// Throws what ``migrate(from:to:_:)`` would, without changing anything.
    /// `renames`: those `stored` already has applied but the store does not yet (its queries use the stored names).
    private func checkMigration(from stored: SchemaSnapshot, to current: SchemaSnapshot, _ db: any SchemaConnection,
                                renames: SchemaRenames.Resolution) throws {
        for table in current.tables {
            guard let old = stored.table(named: table.name) else { continue }
            for column in table.columns {
                if let existing = old.columns.first(where: { $0.name == column.name }) {
                    try Self.checkUnchanged(existing, column, in: table.name)
                } else if !column.isOptional && column.defaultValue == nil {
                    throw GraphStoreError.incompatibleStore("new attribute \(table.name).\(column.name) is neither optional nor defaulted")
                }
            }
            for columns in table.uniqueConstraints where !old.uniqueConstraints.contains(columns) {
                let (storedTable, storedColumns) = renames.storedNames(table.name, columns)
                try checkNoDuplicates(storedTable, storedColumns, db)
            }
            try checkDroppedColumns(of: table, from: old)
        }
        try checkRemovedTables(from: stored, current)
    }

    private func migrate(from original: SchemaSnapshot, to current: SchemaSnapshot, _ db: any SchemaConnection) throws {
        let renames = try SchemaRenames(model: model).resolve(original)
        let stored = renames.applied(to: original)
        try checkMigration(from: stored, to: current, db, renames: renames)
        try renames.perform(db) { column, table in try dropLeftover(column, of: table, db) }
        let added = current.tables.filter { stored.table(named: $0.name) == nil }
        for table in added where table.isJoin != true { try dropLeftoverTable(table.name, db) }
        try createTables(added, db)
        for table in current.tables {
            guard let old = stored.table(named: table.name) else { continue }
            try migrateColumns(of: table, from: old, db)
            try migrateIndexes(of: table, from: old, db)
            try dropColumns(of: table, from: old, db)
        }
        try dropJoinTables(removedFrom: stored, current, db)
        try dropRemovedTables(from: stored, current, db)
        try saveSnapshot(current, db)
    }

    static func checkUnchanged(_ existing: SchemaSnapshot.Column, _ column: SchemaSnapshot.Column, in table: String) throws {
        guard existing.type == column.type, existing.isOptional == column.isOptional,
            existing.references == column.references, existing.isDate == column.isDate
        else {
            throw GraphStoreError.incompatibleStore("\(table).\(column.name) changed type or optionality; lightweight migration cannot convert it")
        }
        // The foreign key's ON DELETE action is part of the table: SQLite cannot alter it in place.
        guard existing.onDelete == column.onDelete else {
            throw GraphStoreError.incompatibleStore(
                "the delete rule behind \(table).\(column.name) changed (\(existing.onDelete ?? "NO ACTION") to \(column.onDelete ?? "NO ACTION")); lightweight migration cannot alter a foreign key")
        }
    }

    func checkNoDuplicates(_ table: String, _ columns: [String], _ db: any SchemaConnection) throws {
        let list = columns.map(SQL.quote).joined(separator: ", ")
        let rows = try db.fetchRows("SELECT \(list) FROM \(SQL.quote(table)) GROUP BY \(list) HAVING count(*) > 1 LIMIT 10", [])
        guard !rows.isEmpty else { return }
        let duplicates = rows.map { row in row.map(\.text) }
        throw GraphStoreError.migrationConstraintViolation(entity: table, attributes: columns, duplicates: duplicates)
    }

    private func saveSnapshot(_ schema: SchemaSnapshot, _ db: any SchemaConnection) throws {
        try db.execute("INSERT INTO \(Self.metadataTable) (key, value) VALUES ('schema', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                       [.text(schema.encoded())])
    }

    private static func storedSnapshot(_ db: any SchemaConnection) throws -> SchemaSnapshot? {
        guard try db.tableExists(metadataTable) else { return nil }
        guard let text = try db.fetchText("SELECT value FROM \(metadataTable) WHERE key = 'schema'"),
            let snapshot = SchemaSnapshot.decode(text)
        else { throw GraphStoreError.incompatibleStore("the store's schema record is missing or unreadable") }
        return snapshot
    }
}
