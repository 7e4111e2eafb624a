/// A batch update: the matching rows found by one query, then updated row by row in the store
/// (a set-based statement per batch on PostgreSQL), so persistent history sees each row's values.
struct BatchUpdate {
    let writer: any StoreWriter

    func run(_ entity: EntityDescription, _ predicate: PredicateNode?, _ columns: [String], _ values: [StoredValue]) throws -> ChangeSet {
        let rowIDs = try writer.fetchColumns(StoreQuery(entity: entity.name, predicate: predicate, columns: [])).rowIDs
        var changes = ChangeSet()
        guard !rowIDs.isEmpty, !columns.isEmpty else { return changes }
        try checkUniqueness(entity, columns, first: rowIDs[0])
        try writer.writingInBatch(entity, inserts: 0) {
            for rowID in rowIDs { try writer.update(entity, rowID: rowID, columns: columns, values: values) }
        }
        changes.updated[entity.name] = Set(rowIDs.map { .permanent(entity.name, $0) })
        return changes
    }

    /// Every matched row would take the same value: a unique constraint's attributes are refused
    /// before anything is written (a context's save resolves such conflicts by its merge policy).
    private func checkUniqueness(_ entity: EntityDescription, _ columns: [String], first rowID: Int64) throws {
        let unique = Set(entity.uniqueConstraints.joined())
        let refused = columns.filter(unique.contains)
        guard !refused.isEmpty else { return }
        let names = refused.map { "\(entity.name).\($0)" }.joined(separator: ", ")
        throw GraphStoreError.validationFailed([ValidationIssue(
            object: .permanent(entity.name, rowID),
            rule: "\(names) is part of a unique constraint: a batch update cannot set it; change it through a context")])
    }
}
