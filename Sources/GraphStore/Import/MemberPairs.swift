/// The many-to-many pairs of one import pass: the member sets its records give, compared with the
/// pairs stored for the rows it merges, and written as join rows after each owner table's rows, in
/// a batch of their own (set-based on PostgreSQL). Whether a set replaces a stored row's is the
/// policy's rule (``MergePolicy/Field/memberSet``), asked by ``ImportPass``; this only keeps pairs.
struct MemberPairs {
    /// Per table, per many-to-many (``EntityDescription/manyToManyRelationships`` order): its join table.
    let joins: [[JoinTable]]
    /// Per table, per many-to-many: its members' entity name (asked once: a class's name is built
    /// by `String(describing:)`, 5% of a tagged import when asked per owner).
    private let memberEntities: [[String]]
    /// Per table, per many-to-many its records give: the table of the save holding its members'
    /// records, if any (nil for a set no record gives, so that the other side may give its own).
    let destinations: [[Int?]]
    /// Per table, per many-to-many: the stored pairs of the owners read, as member → join row.
    private var stored: [[[Int64: [Int64: Int64]]]]
    /// Join rows to write for the table being written, per many-to-many.
    private var inserts: [[[StoredValue]]] = []
    private var deletes: [[Int64]] = []
    /// Rows stored before the pass whose pairs it changed from the members' side.
    private(set) var touchedMembers: Set<ObjectID> = []

    init(tables: [RecordTable]) {
        joins = tables.map { table in table.entity.manyToManyRelationships.map { table.entity.joinTable(ofSlot: $0.slot)! } }
        memberEntities = joins.map { $0.map { $0.entity.relationship(named: $0.memberColumn)!.destinationName } }
        destinations = tables.map { table in
            table.entity.manyToManyRelationships.enumerated().map { set, relationship in
                table.givesSet(set) ? tables.firstIndex { $0.entity === relationship.destinationEntity } : nil
            }
        }
        stored = joins.map { Array(repeating: [:], count: $0.count) }
    }

    /// Stops when a set's members would be written after their owners: both sides of a pair (or a
    /// cycle of links) giving sets in one save, which no write order serves.
    func check(writeOrder order: [Int], _ tables: [RecordTable]) {
        for (index, targets) in destinations.enumerated() {
            for case let target? in targets {
                precondition(order.firstIndex(of: target)! < order.firstIndex(of: index)!,
                             "\(tables[index].entity.name) and \(tables[target].entity.name) records link each other in one save: give a many-to-many's sets from one side")
            }
        }
    }

    /// Reads the stored pairs of `owners`, rows of table `index` whose set `set` the pass replaces
    /// (one query per 500 owners, through the join table's index on its owner column).
    mutating func read(_ index: Int, _ set: Int, owners: [Int64], _ reader: any StoreReader) throws {
        let join = joins[index][set]
        for chunk in owners.chunked(by: 500) {
            let found = try reader.lookUp(join.entity, keyColumn: join.ownerColumn, keys: chunk.map(StoredValue.integer), columns: [join.memberColumn])
            for (offset, joinRow) in found.columns.rowIDs.enumerated() {
                guard found.positions[offset] >= 0, case .integer(let member) = found.columns.values[0][offset] else { continue }
                stored[index][set][chunk[chunk.startIndex + found.positions[offset]], default: [:]][member] = joinRow
            }
        }
    }

    /// Makes `owner`'s pairs of `set` exactly `members`; returns whether a pair changed. A new
    /// owner (never read) has none stored.
    mutating func replace(_ index: Int, _ set: Int, owner: Int64, members: Set<Int64>) -> Bool {
        if inserts.count != joins[index].count { (inserts, deletes) = (joins[index].map { _ in [] }, joins[index].map { _ in [] }) }
        let join = joins[index][set], memberEntity = memberEntities[index][set]
        let old = stored[index][set].removeValue(forKey: owner) ?? [:]
        var changed = false
        for (member, joinRow) in old where !members.contains(member) {
            deletes[set].append(joinRow)
            touchedMembers.insert(.permanent(memberEntity, member))
            changed = true
        }
        for member in members where old[member] == nil {
            inserts[set].append(join.row(owner: owner, member: member))
            touchedMembers.insert(.permanent(memberEntity, member))
            changed = true
        }
        return changed
    }

    /// Writes the join rows the owners of table `index` need, one batch per join table.
    mutating func flush(_ index: Int, _ writer: any StoreWriter) throws {
        guard inserts.count == joins[index].count else { return }
        for (set, join) in joins[index].enumerated() where !inserts[set].isEmpty || !deletes[set].isEmpty {
            try writer.writingInBatch(join.entity, inserts: inserts[set].count) {
                for rowID in deletes[set] { try writer.delete(from: join.entity, rowID: rowID) }
                for values in inserts[set] { _ = try writer.insert(into: join.entity, values: values) }
            }
        }
        (inserts, deletes) = ([], [])
    }
}
