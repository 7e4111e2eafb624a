internal import GRDB
internal import GRDBSQLite

/// One GRDB database connection seen through ``StoreReader`` and ``StoreWriter`` (not named
/// `SQLiteConnection`: GRDB's public type of that name is the C connection pointer).
struct SQLiteStoreConnection: StoreWriter {
    let db: Database
    let model: ManagedObjectModel
    let statements: [String: EntitySQL]

    func fetch(_ query: StoreQuery) throws -> [StoredRow] {
        guard let entity = model.entity(named: query.entity) else { return [] }
        let (sql, arguments) = select(query, entity)
        return try rows(sql: sql, arguments: arguments, width: query.columns?.count ?? entity.columns.count)
    }

    func fetchColumns(_ query: StoreQuery) throws -> StoredColumns {
        let width = query.columns?.count ?? 0
        var result = StoredColumns(values: Array(repeating: [], count: width))
        guard let entity = model.entity(named: query.entity) else { return result }
        let (sql, arguments) = select(query, entity)
        let statement = try prepared(sql, arguments)
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return result }
            guard code == SQLITE_ROW else { throw failure(code, sql) }
            result.rowIDs.append(sqlite3_column_int64(statement, 0))
            for column in 0..<width { result.values[column].append(StoredValue(column: Int32(column + 1), of: statement)) }
        }
    }

    private func select(_ query: StoreQuery, _ entity: EntityDescription) -> (String, [StoredValue]) {
        var compiler = SQLCompiler(model: model)
        var sql = query.columns.map { "SELECT " + (["id"] + $0).map(SQL.quote).joined(separator: ", ") + " FROM " + SQL.quote(entity.name) }
            ?? selectClause(entity)
        if let predicate = query.predicate { sql += " WHERE " + compiler.whereClause(predicate) }
        // Objects come back in id order when no sort is asked for; column reads (lookups) in
        // whatever order SQLite finds them: sorting a page's looked-up rows was 4% of a re-import.
        if !query.sortBy.isEmpty || query.columns == nil { sql += SQLCompiler.orderBy(query.sortBy) }
        if let limit = query.limit { sql += " LIMIT \(max(0, limit))" }
        if let offset = query.offset { sql += (query.limit == nil ? " LIMIT -1" : "") + " OFFSET \(max(0, offset))" }
        return (sql, compiler.arguments)
    }

    func count(_ query: StoreQuery) throws -> Int {
        var compiler = SQLCompiler(model: model)
        var sql = "SELECT count(*) FROM \(SQL.quote(query.entity))"
        if let predicate = query.predicate { sql += " WHERE " + compiler.whereClause(predicate) }
        return try Int.fetchOne(db, sql: sql, arguments: StatementArguments(compiler.arguments.map(\.databaseValue))) ?? 0
    }

    func groupCounts(entity: String, column: String) throws -> [Int64: Int] {
        let sql = "SELECT \(SQL.quote(column)), count(*) FROM \(SQL.quote(entity)) WHERE \(SQL.quote(column)) IS NOT NULL GROUP BY 1"
        var counts: [Int64: Int] = [:]
        let cursor = try Row.fetchCursor(db, sql: sql)
        while let row = try cursor.next() { counts[row[0]] = row[1] }
        return counts
    }

    func ownersWithoutMembers(owner: String, candidates: [Int64], member: String, column: String) throws -> [Int64] {
        try candidates.chunked(by: 500).flatMap { chunk in
            let sql = "SELECT \"id\" FROM \(SQL.quote(owner)) WHERE \"id\" IN (\(SQL.placeholders(chunk.count))) "
                + "AND NOT EXISTS (SELECT 1 FROM \(SQL.quote(member)) WHERE \(SQL.quote(column)) = \(SQL.quote(owner)).\"id\")"
            return try Int64.fetchAll(db, sql: sql, arguments: StatementArguments(chunk.map { $0 }))
        }
    }

    func rows(of entity: EntityDescription, rowIDs: [Int64]) throws -> [StoredRow] {
        try rowIDs.chunked(by: 500).flatMap { chunk in
            try rows(sql: selectClause(entity) + " WHERE \"id\" IN (\(SQL.placeholders(chunk.count)))",
                     arguments: chunk.map { .integer($0) }, width: entity.columns.count)
        }
    }

    func rows(of entity: EntityDescription, columns: [String], matching keys: [[StoredValue]]) throws -> [StoredRow] {
        let perKey = max(1, columns.count)
        return try keys.chunked(by: max(1, 512 / perKey)).flatMap { chunk in
            // Padded (with the last key) to a bucket size, so chunks of similar size share a statement.
            let count = SQL.bucket(chunk.count)
            let condition = if columns.count == 1 {
                "\(SQL.quote(columns[0])) IN (\(SQL.placeholders(count)))"
            } else {
                "(\(columns.map(SQL.quote).joined(separator: ", "))) IN (VALUES "
                    + Array(repeating: "(\(SQL.placeholders(perKey)))", count: count).joined(separator: ", ") + ")"
            }
            let arguments = chunk.flatMap { $0 } + repeatElement(chunk.last ?? [], count: count - chunk.count).joined()
            return try rows(sql: selectClause(entity) + " WHERE " + condition, arguments: arguments, width: entity.columns.count)
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

    private func selectClause(_ entity: EntityDescription) -> String { sql(entity).select }

    private func sql(_ entity: EntityDescription) -> EntitySQL { statements[entity.name] ?? EntitySQL(entity) }

    /// Runs a statement that returns no rows. A broken unique index is a ``UniqueViolation``
    /// (a save that trusted an earlier read runs again on it).
    private func execute(_ sql: String, _ values: [StoredValue]) throws {
        let statement = try prepared(sql, values)
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            if let connection = db.sqliteConnection, sqlite3_extended_errcode(connection) == ResultCode.SQLITE_CONSTRAINT_UNIQUE.rawValue {
                throw UniqueViolation(failure: StoreFailure(message: String(cString: sqlite3_errmsg(connection)), resultCode: code,
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

extension Array {
    func chunked(by size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
