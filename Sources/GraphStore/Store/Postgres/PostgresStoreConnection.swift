/// One PostgreSQL connection, inside a transaction, seen through ``StoreReader`` and ``StoreWriter``.
/// Statements are ``StoreStatements``' (SQLite's spelling, renumbered by the connection).
struct PostgresStoreConnection: StoreWriter {
    let connection: PostgresConnection
    let model: ManagedObjectModel
    let statements: StoreStatements
    /// The batch ``writingInBatch(_:inserts:_:)`` is filling, if any.
    let batching = PostgresBatching()
    var schema: any SchemaConnection { self }

    func fetch(_ query: StoreQuery) throws -> [StoredRow] {
        guard let entity = model.storedEntity(named: query.entity) else { return [] }
        let (sql, arguments) = statements.select(query, entity)
        return try run(sql, arguments).storedRows(width: query.columns?.count ?? entity.columns.count)
    }

    func fetchColumns(_ query: StoreQuery) throws -> StoredColumns {
        let width = query.columns?.count ?? 0
        var columns = StoredColumns(values: Array(repeating: [], count: width))
        guard let entity = model.storedEntity(named: query.entity) else { return columns }
        let (sql, arguments) = statements.select(query, entity)
        let result = try run(sql, arguments)
        columns.rowIDs = (0..<result.rowCount).map { result.integer($0, 0) }
        columns.values = (0..<width).map { column in (0..<result.rowCount).map { result.value($0, column + 1) } }
        return columns
    }

    func count(_ query: StoreQuery) throws -> Int {
        let (sql, arguments) = statements.count(query)
        return Int(try run(sql, arguments).integer(0, 0))
    }

    func groupCounts(entity: String, column: String) throws -> [Int64: Int] {
        let result = try run(StoreStatements.groupCounts(entity: entity, column: column), [])
        var counts: [Int64: Int] = [:]
        for row in 0..<result.rowCount { counts[result.integer(row, 0)] = Int(result.integer(row, 1)) }
        return counts
    }

    func groupCounts(entity: String, column: String, owners: [Int64]) throws -> [Int64: Int] {
        let sql = StoreStatements.groupCounts(entity: entity, column: column, owners: owners.count, dialect: .postgres)
        let result = try run(sql, [PostgresBatchSQL.arrayLiteral(owners.map(StoredValue.integer))])
        var counts: [Int64: Int] = [:]
        for row in 0..<result.rowCount { counts[result.integer(row, 0)] = Int(result.integer(row, 1)) }
        return counts
    }

    func ownersWithoutMembers(owner: String, candidates: [Int64], member: String, column: String) throws -> [Int64] {
        try candidates.chunked(by: 500).flatMap { chunk in
            let sql = StoreStatements.ownersWithoutMembers(owner: owner, count: chunk.count, member: member, column: column)
            let result = try run(sql, chunk.map { .integer($0) })
            return (0..<result.rowCount).map { result.integer($0, 0) }
        }
    }

    func rows(of entity: EntityDescription, rowIDs: [Int64]) throws -> [StoredRow] {
        try rowIDs.chunked(by: 500).flatMap { chunk in
            try run(statements.rows(of: entity, count: chunk.count), chunk.map { .integer($0) }).storedRows(width: entity.columns.count)
        }
    }

    func rows(of entity: EntityDescription, columns: [String], matching keys: [[StoredValue]]) throws -> [StoredRow] {
        try statements.rows(of: entity, columns: columns, matching: keys).flatMap { sql, arguments in
            try run(sql, arguments).storedRows(width: entity.columns.count)
        }
    }

    func insert(into entity: EntityDescription, values: [StoredValue]) throws -> Int64 {
        if let batch = batching.batch(of: entity) { return try insert(values, into: batch) }
        return try run(statements.sql(entity).insert + " RETURNING \"id\"", values).integer(0, 0)
    }

    /// Returns whether the row exists (always true for a row kept in a batch).
    @discardableResult
    func update(_ entity: EntityDescription, rowID: Int64, columns: [String], values: [StoredValue]) throws -> Bool {
        guard !columns.isEmpty else { return true }
        if let batch = batching.batch(of: entity) {
            batch.update(rowID: rowID, columns: columns, values: values)
            if batch.isFull { try send(batch) }
            return true
        }
        return try run(statements.sql(entity).update(columns), values + [.integer(rowID)]).affectedRows > 0
    }

    func delete(from entity: EntityDescription, rowID: Int64) throws {
        if let batch = batching.batch(of: entity) {
            batch.delete(rowID: rowID)
            if batch.isFull { try send(batch) }
            return
        }
        try run(statements.sql(entity).delete, [.integer(rowID)])
    }

    /// A savepoint: an error inside it is rolled back to it, and the transaction goes on (without
    /// one, any failed statement aborts a PostgreSQL transaction).
    func savepoint<T>(_ body: () throws -> T) throws -> T {
        try command("SAVEPOINT graphstore")
        do {
            let result = try body()
            try command("RELEASE SAVEPOINT graphstore")
            return result
        } catch {
            try command("ROLLBACK TO SAVEPOINT graphstore")
            try command("RELEASE SAVEPOINT graphstore")
            throw error
        }
    }

    // MARK: - Helpers

    /// Runs a statement; PostgreSQL's errors become the ones contexts and import sessions act on.
    @discardableResult
    func run(_ sql: String, _ values: [StoredValue]) throws -> PostgresResult {
        do {
            return try connection.query(sql, values)
        } catch {
            throw error.storeError
        }
    }

    /// Runs a statement without values (transaction control, DDL) as one command.
    func command(_ sql: String) throws {
        do {
            try connection.execute(sql)
        } catch {
            throw error.storeError
        }
    }
}

extension PostgresError {
    /// A unique violation (another writer stored the key first) or a serialization failure (another
    /// writer's transaction overlapped this one) makes a save run again; anything else fails it.
    var storeError: any Error {
        switch kind {
        case .uniqueViolation: UniqueViolation(failure: failure)
        case .serializationFailure: SerializationFailure(failure: failure)
        default: PostgresStatementError(failure: failure)
        }
    }
}

/// A statement the database refused for a reason a retry cannot fix; the store reports it as
/// `readFailed` or `writeFailed`.
struct PostgresStatementError: Error {
    let failure: StoreFailure
}
