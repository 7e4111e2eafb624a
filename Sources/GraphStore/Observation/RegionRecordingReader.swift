/// A ``StoreReader`` that forwards every call and notes the entities each read depends on: the
/// entity read, those its predicate reaches (to-one destinations, to-many members, join tables)
/// and those it sorts by. An observation re-fetches only when a save changes one of them.
final class RegionRecordingReader: StoreReader {
    let base: any StoreReader
    private(set) var region = Set<String>()

    init(_ base: any StoreReader) { self.base = base }

    private func note(_ query: StoreQuery) {
        region.insert(query.entity)
        if let predicate = query.predicate { note(predicate) }
        for sort in query.sortBy { if let hop = sort.hop { region.insert(hop.destination) } }
    }

    private func note(_ node: PredicateNode) {
        switch node {
        case .toOne(_, let entity, let nested), .anyMember(let entity, _, let nested):
            region.insert(entity)
            note(nested)
        case .and(let nodes), .or(let nodes): nodes.forEach(note)
        case .not(let nested): note(nested)
        case .compare, .isNull, .isIn, .string, .constant: break
        }
    }

    func fetch(_ query: StoreQuery) throws -> [StoredRow] {
        note(query)
        return try base.fetch(query)
    }

    func fetchColumns(_ query: StoreQuery) throws -> StoredColumns {
        note(query)
        return try base.fetchColumns(query)
    }

    func lookUp(_ entity: EntityDescription, keyColumn: String, keys: [StoredValue], columns: [String]) throws -> KeyedRows {
        region.insert(entity.name)
        return try base.lookUp(entity, keyColumn: keyColumn, keys: keys, columns: columns)
    }

    func count(_ query: StoreQuery) throws -> Int {
        note(query)
        return try base.count(query)
    }

    func groupCounts(entity: String, column: String) throws -> [Int64: Int] {
        region.insert(entity)
        return try base.groupCounts(entity: entity, column: column)
    }

    func groupCounts(entity: String, column: String, owners: [Int64]) throws -> [Int64: Int] {
        region.insert(entity)
        return try base.groupCounts(entity: entity, column: column, owners: owners)
    }

    func ownersWithoutMembers(owner: String, candidates: [Int64], member: String, column: String) throws -> [Int64] {
        region.formUnion([owner, member])
        return try base.ownersWithoutMembers(owner: owner, candidates: candidates, member: member, column: column)
    }

    func rows(of entity: EntityDescription, rowIDs: [Int64]) throws -> [StoredRow] {
        region.insert(entity.name)
        return try base.rows(of: entity, rowIDs: rowIDs)
    }

    func rows(of entity: EntityDescription, columns: [String], matching keys: [[StoredValue]]) throws -> [StoredRow] {
        region.insert(entity.name)
        return try base.rows(of: entity, columns: columns, matching: keys)
    }
}
