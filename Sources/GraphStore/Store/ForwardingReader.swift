/// A writer that wraps another (history, observation) and reads through it unchanged: its reads
/// come from here, once.
protocol ForwardingReader: StoreReader {
    var base: any StoreWriter { get }
}

extension ForwardingReader {
    var schema: any SchemaConnection { base.schema }
    func fetch(_ query: StoreQuery) throws -> [StoredRow] { try base.fetch(query) }
    func fetchColumns(_ query: StoreQuery) throws -> StoredColumns { try base.fetchColumns(query) }
    func lookUp(_ entity: EntityDescription, keyColumn: String, keys: [StoredValue], columns: [String]) throws -> KeyedRows {
        try base.lookUp(entity, keyColumn: keyColumn, keys: keys, columns: columns)
    }
    func count(_ query: StoreQuery) throws -> Int { try base.count(query) }
    func groupCounts(entity: String, column: String) throws -> [Int64: Int] { try base.groupCounts(entity: entity, column: column) }
    func groupCounts(entity: String, column: String, owners: [Int64]) throws -> [Int64: Int] {
        try base.groupCounts(entity: entity, column: column, owners: owners)
    }
    func ownersWithoutMembers(owner: String, candidates: [Int64], member: String, column: String) throws -> [Int64] {
        try base.ownersWithoutMembers(owner: owner, candidates: candidates, member: member, column: column)
    }
    func rows(of entity: EntityDescription, rowIDs: [Int64]) throws -> [StoredRow] { try base.rows(of: entity, rowIDs: rowIDs) }
    func rows(of entity: EntityDescription, columns: [String], matching keys: [[StoredValue]]) throws -> [StoredRow] {
        try base.rows(of: entity, columns: columns, matching: keys)
    }
}
