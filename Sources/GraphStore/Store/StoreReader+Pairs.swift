/// Set-based reads of relationships: one `IN` query per 500 rows, never an object. A batch delete
/// follows its rules with them; a context's save loads the to-manys of many deleted objects at once.
extension StoreReader {
    /// (owner, destination) row pairs of `relationship` for the rows `rowIDs` of `entity`.
    func pairs(of entity: EntityDescription, _ rowIDs: [Int64], _ relationship: RelationshipDescription) throws -> [(owner: Int64, destination: Int64)] {
        let found: StoredColumns
        let ownerFirst: Bool
        if relationship.isManyToMany {
            guard let join = entity.joinTable(ofSlot: relationship.slot) else { return [] }
            found = try select(join.entity.name, whose: join.ownerColumn, in: rowIDs, reading: [join.ownerColumn, join.memberColumn])
            ownerFirst = true
        } else if relationship.isToMany {
            guard let inverse = relationship.inverseName else { return [] }
            let members = try select(relationship.destinationName, whose: inverse, in: rowIDs, reading: [inverse])
            return zip(members.values[0], members.rowIDs).compactMap { owner, member in owner.rowID.map { ($0, member) } }
        } else {
            found = try select(entity.name, whose: "id", in: rowIDs, reading: [relationship.name])
            return zip(found.rowIDs, found.values[0]).compactMap { owner, destination in destination.rowID.map { (owner, $0) } }
        }
        return zip(found.values[0], found.values[1]).compactMap { owner, member in
            guard let owner = owner.rowID, let member = member.rowID else { return nil }
            return ownerFirst ? (owner, member) : (member, owner)
        }
    }

    /// The rows of `table` whose `column` holds one of `values`, with the columns `reading`.
    func select(_ table: String, whose column: String, in values: [Int64], reading columns: [String]) throws -> StoredColumns {
        var result = StoredColumns(values: Array(repeating: [], count: columns.count))
        for start in stride(from: 0, to: values.count, by: 500) {
            let chunk = values[start..<min(start + 500, values.count)].map(StoredValue.integer)
            let found = try fetchColumns(StoreQuery(entity: table, predicate: .isIn(column: column, chunk), columns: columns))
            result.rowIDs += found.rowIDs
            for index in columns.indices { result.values[index] += found.values[index] }
        }
        return result
    }
}

extension StoredValue {
    /// An integer value as a row ID (a foreign key), nil for anything else.
    var rowID: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}
