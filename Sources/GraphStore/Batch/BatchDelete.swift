/// A batch delete with delete rules, applied set-based over row IDs, never over objects:
/// 1. closure: the matched rows, then each cascade's destinations (`... WHERE owner IN (...)`), repeated;
/// 2. deny: a live destination (one the batch does not delete) of a `.deny` relationship refuses
///    the whole batch before anything is written;
/// 3. nullify: the members of a `.nullify` to-many get their to-one cleared; join rows go;
/// 4. the rows are deleted, then the owners a `deletesOwnerWhenEmpty` to-many was emptied of.
/// The same order as a context's save (``ObjectContext/propagateDeletes(_:)``), minus the hooks.
struct BatchDelete {
    let writer: any StoreWriter
    let model: ManagedObjectModel
    /// The rows to delete by entity, in the order found, and as sets.
    private var doomed: [(entity: EntityDescription, rowIDs: [Int64])] = []
    private var doomedSets: [String: Set<Int64>] = [:]
    private var vacated: [String: Set<Int64>] = [:]
    private var changes = ChangeSet()

    init(writer: any StoreWriter, model: ManagedObjectModel) {
        self.writer = writer
        self.model = model
    }

    mutating func run(_ entity: EntityDescription, _ predicate: PredicateNode?) throws -> ChangeSet {
        let matched = try writer.fetchColumns(StoreQuery(entity: entity.name, predicate: predicate, columns: [])).rowIDs
        try close(over: entity, matched)
        try checkDenials()
        try nullify()
        try deleteRows()
        for id in try writer.deleteEmptiedOwners(vacated, model: model) { changes.deleted[id.entityName, default: []].insert(id) }
        return changes
    }

    private func isDoomed(_ entity: EntityDescription, _ rowID: Int64) -> Bool { doomedSets[entity.name]?.contains(rowID) == true }

    private mutating func close(over entity: EntityDescription, _ rowIDs: [Int64]) throws {
        var work = [(entity, rowIDs)]
        while let (entity, found) = work.popLast() {
            let fresh = found.filter { doomedSets[entity.name, default: []].insert($0).inserted }
            guard !fresh.isEmpty else { continue }
            doomed.append((entity, fresh))
            for relationship in entity.relationships where relationship.deleteRule == .cascade {
                work.append((relationship.destinationEntity, try writer.pairs(of: entity, fresh, relationship).map(\.destination)))
            }
        }
    }

    private func checkDenials() throws {
        for (entity, rowIDs) in doomed {
            for relationship in entity.relationships where relationship.deleteRule == .deny {
                let live = try writer.pairs(of: entity, rowIDs, relationship).filter { !isDoomed(relationship.destinationEntity, $0.destination) }
                guard let first = live.first else { continue }
                throw GraphStoreError.deleteDenied(object: .permanent(entity.name, first.owner), relationship: "\(entity.name).\(relationship.name)",
                                                   count: live.filter { $0.owner == first.owner }.count)
            }
        }
    }

    /// Clears the to-ones of surviving members, deletes the join rows, and notes the owners a
    /// deleted row leaves (for `deletesOwnerWhenEmpty`).
    private mutating func nullify() throws {
        for (entity, rowIDs) in doomed {
            for relationship in entity.relationships {
                let destination = relationship.destinationEntity
                if relationship.isManyToMany {
                    try deleteJoinRows(of: entity, rowIDs, relationship)
                } else if relationship.isToMany, relationship.deleteRule == .nullify, let inverse = relationship.inverseName {
                    let members = try writer.pairs(of: entity, rowIDs, relationship).map(\.destination).filter { !isDoomed(destination, $0) }
                    try writer.writingInBatch(destination, inserts: 0) {
                        for member in members { try writer.update(destination, rowID: member, columns: [inverse], values: [.null]) }
                    }
                    changes.updated[destination.name, default: []].formUnion(members.map { .permanent(destination.name, $0) })
                } else if !relationship.isToMany {
                    for pair in try writer.pairs(of: entity, rowIDs, relationship) where !isDoomed(destination, pair.destination) {
                        vacated[entity.name + "." + relationship.name, default: []].insert(pair.destination)
                    }
                }
            }
        }
    }

    /// A join row goes with either of its rows; the surviving partner counts as updated.
    private mutating func deleteJoinRows(of entity: EntityDescription, _ rowIDs: [Int64], _ relationship: RelationshipDescription) throws {
        guard let join = entity.joinTable(ofSlot: relationship.slot) else { return }
        let rows = try writer.select(join.entity.name, whose: join.ownerColumn, in: rowIDs, reading: [join.memberColumn])
        let destination = relationship.destinationEntity
        try writer.willDelete(from: join.entity, rowIDs: rows.rowIDs, known: [])
        for (joinRow, member) in zip(rows.rowIDs, rows.values[0]) {
            guard doomedSets[join.entity.name, default: []].insert(joinRow).inserted else { continue }
            try writer.delete(from: join.entity, rowID: joinRow)
            if case .integer(let partner) = member, !isDoomed(destination, partner) {
                changes.updated[destination.name, default: []].insert(.permanent(destination.name, partner))
            }
        }
    }

    private mutating func deleteRows() throws {
        for (entity, rowIDs) in doomed {
            try writer.willDelete(from: entity, rowIDs: Array(rowIDs), known: [])
            try writer.writingInBatch(entity, inserts: 0) {
                for rowID in rowIDs { try writer.delete(from: entity, rowID: rowID) }
            }
            changes.deleted[entity.name, default: []].formUnion(rowIDs.map { .permanent(entity.name, $0) })
        }
        for (name, ids) in changes.updated { changes.updated[name] = ids.filter { !(doomedSets[name]?.contains($0.rowID ?? -1) ?? false) } }
        changes.updated = changes.updated.filter { !$0.value.isEmpty }
    }
}
