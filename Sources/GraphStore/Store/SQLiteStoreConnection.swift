internal import GRDB
internal import GRDBSQLite

/// One GRDB database connection seen through ``StoreReader`` and ``StoreWriter`` (not named
/// `SQLiteConnection`: GRDB's public type of that name is the C connection pointer).
struct SQLiteStoreConnection: StoreWriter {
    let db: Database
    let model: ManagedObjectModel
    let statements: StoreStatements
    var schema: any SchemaConnection { SQLiteSchemaConnection(db: db) }

    func fetch(_ query: StoreQuery) throws -> [StoredRow] {
        guard let entity = model.storedEntity(named: query.entity) else { return [] }
        let width = query.columns?.count ?? entity.columns.count
        if Self.hasJSON, let (sql, arguments) = StoreStatements.selectJoiningKeys(query, entity) {
            let found = try rows(sql: sql, arguments: arguments, width: width).uniqueRows()
            // Objects in id order, as the SELECT sorts them (cheaper here than sorting whole rows in SQLite).
            return query.columns == nil ? found.sorted { $0.rowID < $1.rowID } : found
        }
        let (sql, arguments) = statements.select(query, entity)
        return try rows(sql: sql, arguments: arguments, width: width)
    }

    func fetchColumns(_ query: StoreQuery) throws -> StoredColumns {
        let width = query.columns?.count ?? 0
        var result = StoredColumns(values: Array(repeating: [], count: width))
        guard let entity = model.storedEntity(named: query.entity) else { return result }
        let joined = Self.hasJSON && query.columns != nil ? StoreStatements.selectJoiningKeys(query, entity) : nil
        let (sql, arguments) = joined ?? statements.select(query, entity)
        let statement = try prepared(sql, arguments)
        var seen: Set<Int64>? = joined == nil ? nil : []  // a key listed twice joins its row twice
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return result }
            guard code == SQLITE_ROW else { throw failure(code, sql) }
            let rowID = sqlite3_column_int64(statement, 0)
            if seen != nil, !seen!.insert(rowID).inserted { continue }
            result.rowIDs.append(rowID)
            for column in 0..<width { result.values[column].append(StoredValue(column: Int32(column + 1), of: statement)) }
        }
    }

    func lookUp(_ entity: EntityDescription, keyColumn: String, keys: [StoredValue], columns: [String]) throws -> KeyedRows {
        guard Self.hasJSON, let keyList = StoredValue.jsonArray(keys) else {
            return try lookUpByIN(entity, keyColumn: keyColumn, keys: keys, columns: columns)
        }
        var found = KeyedRows(columns: StoredColumns(values: Array(repeating: [], count: columns.count)))
        let sql = StoreStatements.lookUp(entity.name, keyColumn: keyColumn, columns: columns)
        let statement = try prepared(sql, [.text(keyList)])
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return found }
            guard code == SQLITE_ROW else { throw failure(code, sql) }
            found.positions.append(Int(sqlite3_column_int64(statement, 0)))
            found.columns.rowIDs.append(sqlite3_column_int64(statement, 1))
            for column in columns.indices { found.columns.values[column].append(StoredValue(column: Int32(column + 2), of: statement)) }
        }
    }

    /// Whether the SQLite linked has `json_each` (built in since 3.38 unless left out; before, an option).
    private static let hasJSON = sqlite3_compileoption_used("OMIT_JSON") == 0
        && (sqlite3_libversion_number() >= 3_038_000 || sqlite3_compileoption_used("ENABLE_JSON1") != 0)

    func count(_ query: StoreQuery) throws -> Int {
        let (sql, arguments) = statements.count(query)
        return try Int.fetchOne(db, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue))) ?? 0
    }

    func groupCounts(entity: String, column: String) throws -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        let cursor = try Row.fetchCursor(db, sql: StoreStatements.groupCounts(entity: entity, column: column))
        while let row = try cursor.next() { counts[row[0]] = row[1] }
        return counts
    }

    func groupCounts(entity: String, column: String, owners: [Int64]) throws -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        for chunk in owners.chunked(by: 500) {
            let sql = StoreStatements.groupCounts(entity: entity, column: column, owners: chunk.count, dialect: .sqlite)
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(Array(chunk)))
            while let row = try cursor.next() { counts[row[0]] = row[1] }
        }
        return counts
    }

    func ownersWithoutMembers(owner: String, candidates: [Int64], member: String, column: String) throws -> [Int64] {
        try candidates.chunked(by: 500).flatMap { chunk in
            let sql = StoreStatements.ownersWithoutMembers(owner: owner, count: chunk.count, member: member, column: column)
            return try Int64.fetchAll(db, sql: sql, arguments: StatementArguments(chunk.map { $0 }))
        }
    }

    func rows(of entity: EntityDescription, rowIDs: [Int64]) throws -> [StoredRow] {
        try rowIDs.chunked(by: 500).flatMap { chunk in
            try rows(sql: statements.rows(of: entity, count: chunk.count), arguments: chunk.map { .integer($0) }, width: entity.columns.count)
        }
    }

    func rows(of entity: EntityDescription, columns: [String], matching keys: [[StoredValue]]) throws -> [StoredRow] {
        let query = StoreQuery(entity: entity.name, predicate: columns.count == 1 ? .isIn(column: columns[0], keys.map { $0[0] }) : nil)
        if Self.hasJSON, let (sql, arguments) = StoreStatements.selectJoiningKeys(query, entity) {
            return try rows(sql: sql, arguments: arguments, width: entity.columns.count).uniqueRows()
        }
        return try statements.rows(of: entity, columns: columns, matching: keys).flatMap { sql, arguments in
            try rows(sql: sql, arguments: arguments, width: entity.columns.count)
        }
    }

    func insert(into entity: EntityDescription, values: [StoredValue]) throws -> Int64 {
        try execute(sql(entity).insert, values)
        // Straight from the C API: GRDB's accessor checks its scheduling first (~450 instructions a row).
        return db.sqliteConnection.map(sqlite3_last_insert_rowid) ?? db.lastInsertedRowID
    }

    @discardableResult
    func update(_ entity: EntityDescription, rowID: Int64, columns: [String], values: [StoredValue]) throws -> Bool {
        guard !columns.isEmpty else { return true }
        try execute(sql(entity).update(columns), values + [.integer(rowID)])
        return (db.sqliteConnection.map(sqlite3_changes) ?? Int32(db.changesCount)) > 0
    }

    func delete(from entity: EntityDescription, rowID: Int64) throws {
        try execute(sql(entity).delete, [.integer(rowID)])
    }

    func savepoint<T>(_ body: () throws -> T) throws -> T {
        var result: T?
        try db.inSavepoint {
            result = try body()
            return .commit
        }
        return result!
    }

    // MARK: - Helpers

    private func sql(_ entity: EntityDescription) -> EntitySQL { statements.sql(entity) }

    /// Runs a statement that returns no rows. A broken unique index is a ``UniqueViolation``
    /// (a save that trusted an earlier read runs again on it).
    private func execute(_ sql: String, _ values: [StoredValue]) throws {
        let statement = try prepared(sql, values)
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            if let connection = db.sqliteConnection, sqlite3_extended_errcode(connection) == ResultCode.SQLITE_CONSTRAINT_UNIQUE.rawValue {
                throw UniqueViolation(failure: StoreFailure(
                    kind: .uniqueViolation, message: String(cString: sqlite3_errmsg(connection)), resultCode: code,
                    extendedResultCode: ResultCode.SQLITE_CONSTRAINT_UNIQUE.rawValue))
            }
            throw failure(code, sql)
        }
    }

    private func rows(sql: String, arguments: [StoredValue], width: Int) throws -> [StoredRow] {
        let statement = try prepared(sql, arguments)
        var result: [StoredRow] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return result }
            guard code == SQLITE_ROW else { throw failure(code, sql) }
            let values = (0..<Int32(width)).map { StoredValue(column: $0 + 1, of: statement) }
            result.append(StoredRow(rowID: sqlite3_column_int64(statement, 0), values: values))
        }
    }

    /// GRDB's cached statement, reset and bound straight through the C API: boxing every value as a
    /// `DatabaseValue` in `StatementArguments` was a tenth of an import's instructions.
    private func prepared(_ sql: String, _ values: [StoredValue]) throws -> OpaquePointer {
        let statement = try db.cachedStatement(sql: sql).sqliteStatement
        sqlite3_reset(statement)
        for (index, value) in values.enumerated() {
            let code = value.bind(to: statement, at: Int32(index + 1))
            guard code == SQLITE_OK else { throw failure(code, sql) }
        }
        return statement
    }

    private func failure(_ code: Int32, _ sql: String) -> DatabaseError {
        let message = db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
    }
}
