/// Set-based writes on PostgreSQL: the rows of a ``PostgresBatch`` go as a few statements with
/// arrays bound, not one round trip each.
extension PostgresStoreConnection {
    func writingInBatch<T>(_ entity: EntityDescription, inserts: Int, _ body: () throws -> T) throws -> T {
        guard batching.current == nil else { return try body() }  // nested: the outer batch keeps the rows
        let batch = PostgresBatch(entity, expectedInserts: inserts)
        batching.current = batch
        defer { batching.current = nil }
        let result = try body()
        try send(batch)
        return result
    }

    /// Keeps an insert in `batch`, under an id taken from the table's sequence. The one insert a
    /// batch expects, with nothing kept before it, is sent at once instead: one round trip, not
    /// a reservation and then the batch (a fetch's page records one API call).
    func insert(_ values: [StoredValue], into batch: PostgresBatch) throws -> Int64 {
        if values.contains(where: \.holdsNUL) { throw PostgresError.nul.storeError }
        var id = batch.nextID()
        if id == nil, batch.insertsAlone {
            batch.insertedAlone()
            return try run(statements.sql(batch.entity).insert + " RETURNING \"id\"", values).integer(0, 0)
        }
        if id == nil {
            let result = try run(PostgresBatchSQL.reserveIDs, [.text(SQL.quote(batch.entity.name)), .integer(Int64(batch.reservationSize))])
            batch.reserve((0..<result.rowCount).map { result.integer($0, 0) })
            id = batch.nextID()
        }
        guard let id else { throw PostgresError(sqlState: nil, message: "no id reserved for \(batch.entity.name)").storeError }
        batch.insert(values, id: id)
        if batch.isFull { try send(batch) }
        return id
    }

    /// Sends the batch's deletes as one statement, its inserts as one, then its updates as one per
    /// set of columns (so a row inserted in the batch can be updated in it too).
    func send(_ batch: PostgresBatch) throws {
        let entity = batch.entity
        if !batch.deletedIDs.isEmpty {
            try run(PostgresBatchSQL.delete(entity), [PostgresBatchSQL.arrayLiteral(batch.deletedIDs.map(StoredValue.integer))])
        }
        if !batch.insertedRows.isEmpty {
            let columns = [batch.insertedIDs.map(StoredValue.integer)]
                + entity.columns.indices.map { column in batch.insertedRows.map { $0[column] } }
            try run(PostgresBatchSQL.insert(entity), columns.map(PostgresBatchSQL.arrayLiteral))
        }
        for (names, rows) in batch.updates {
            if rows.values.contains(where: { $0.contains(where: \.holdsNUL) }) { throw PostgresError.nul.storeError }
            let columns = [rows.rowIDs.map(StoredValue.integer)] + names.indices.map { column in rows.values.map { $0[column] } }
            try run(PostgresBatchSQL.update(entity, columns: names), columns.map(PostgresBatchSQL.arrayLiteral))
        }
        batch.clear()
    }
}

/// The batch a ``PostgresStoreConnection`` is filling (a class: the connection is a value).
final class PostgresBatching {
    var current: PostgresBatch?

    func batch(of entity: EntityDescription) -> PostgresBatch? {
        guard let current, current.entity === entity else { return nil }
        return current
    }
}

extension PostgresError {
    /// What ``PostgresConnection/query(_:_:)`` refuses: text with a NUL character.
    static let nul = PostgresError(sqlState: "22021", message: "PostgreSQL text cannot hold the NUL character (U+0000)")
}
