/// One attempt at writing an import save inside its transaction: look the keys up, judge every
/// group of records under the merge policy, then write in dependency order (ImportPass+Writing).
///
/// Judging runs members before owners (photos before photographers), so an owner whose entity is
/// deleted when empty is inserted only when a member that will be written links to it. A record's
/// many-to-many set links it like a to-one: its members' records are written first, its join rows
/// after its own rows (``MemberPairs``).
struct ImportPass {
    let session: ImportSession
    let tables: [RecordTable]
    let attempt: ImportAttempt
    var outcome = ImportOutcome()

    /// Per table, per link: the table it points into.
    let destinations: [[Int?]]
    /// Tables in write order: link destinations first.
    private let order: [Int]
    var found: [FoundRows] = []
    var merged: [[MergedRecord]] = []
    var decisions: [[Decision]] = []
    private var needed: [[Bool]]
    var rowIDs: [[Int64?]]
    private var conflicts: [ConstraintConflict] = []
    var vacated: [String: Set<Int64>] = [:]
    var pairs: MemberPairs

    var policy: MergePolicy { session.mergePolicy }

    init(session: ImportSession, tables: [RecordTable], attempt: ImportAttempt) {
        (self.session, self.tables, self.attempt) = (session, tables, attempt)
        destinations = tables.map { table in
            table.entity.toOneRelationships.map { relationship in tables.firstIndex { $0.entity === relationship.destinationEntity } }
        }
        pairs = MemberPairs(tables: tables)
        order = Self.writeOrder(zip(destinations, pairs.destinations).map { $0 + $1 })
        pairs.check(writeOrder: order, tables)
        needed = tables.map { Array(repeating: false, count: $0.groupCount) }
        rowIDs = tables.map { Array(repeating: nil, count: $0.groupCount) }
    }

    mutating func run(_ writer: any StoreWriter) throws {
        for index in tables.indices {
            found.append(try lookUp(index, writer))
            merged.append((0..<tables[index].groupCount).map { MergedRecord(tables[index], group: $0, policy: policy) })
        }
        decisions = tables.map { Array(repeating: .skip, count: $0.groupCount) }
        for index in order.reversed() { judge(index) }
        if !conflicts.isEmpty { throw GraphStoreError.constraintConflicts(conflicts) }
        for index in tables.indices { try readPairs(index, writer) }
        for index in order { try write(index, writer) }
        try deleteEmptiedOwners(writer)
        let inserted = outcome.result.changes.inserted
        for id in pairs.touchedMembers where inserted[id.entityName]?.contains(id) != true {
            outcome.result.changes.updated[id.entityName, default: []].insert(id)
        }
    }

    // MARK: - Looking up

    func isLinkedTo(_ index: Int) -> Bool {
        destinations.contains { $0.contains(index) } || pairs.destinations.contains { $0.contains(index) }
    }

    /// The stored rows of a table's keys: none for a table expected to be all new (the insert
    /// finds out if one is not), remembered rows for link destinations, the rest read in batches.
    private mutating func lookUp(_ index: Int, _ writer: any StoreWriter) throws -> FoundRows {
        let table = tables[index], name = table.entity.name
        var rows = FoundRows(groups: table.groupCount, columns: table.entity.columns.count)
        let linkedTo = isLinkedTo(index)
        if !linkedTo && attempt.assumesNew && session.expectingNew.contains(name) {
            outcome.assumedNew.insert(name)
            outcome.foundNone.insert(name)
            return rows
        }
        let remembered = linkedTo && attempt.usesRemembered ? session.remembered[name] : nil
        var missing: [Int] = []
        for group in 0..<table.groupCount {
            if let row = remembered?[table.keys[group]] { rows.add(row, group: group) } else { missing.append(group) }
        }
        guard !missing.isEmpty else { return rows }
        // Remembered destinations need every column; a policy whose records never replace a stored
        // attribute needs only the links.
        try rows.read(missing, of: table, allColumns: linkedTo || policy.newValueWins(.attribute, storedIsEmpty: false), writer)
        outcome.lookedUp.insert(name)
        if rows.isEmpty && !linkedTo { outcome.foundNone.insert(name) }
        return rows
    }

    // MARK: - Judging

    private mutating func judge(_ index: Int) {
        let table = tables[index]
        let ownedWhenEmpty = table.entity.isDeletedWhenEmpty
        let sessionRows = session.stored[table.entity.name]
        for group in 0..<table.groupCount {
            let record = merged[index][group]
            let decision: Decision
            if let found = found[index].row(ofGroup: group) {
                let row = FoundRow(rowID: self.found[index].rowIDs[found], index: found)
                let inSession = sessionRows?.contains(row.rowID) ?? false
                if policy.reportsConflict(.storedRow(writtenBySameWork: inSession)) {
                    conflicts.append(ConstraintConflict(
                        entity: table.entity.name, attributes: [table.entity.storedAttributes[table.keyIndex].name],
                        values: [table.keys[group].text], objects: [], storedObject: .permanent(table.entity.name, row.rowID)))
                    continue
                }
                decision = .merge(row, overwrite: policy.newValueWins(.attribute, storedIsEmpty: false), repeat: inSession)
            } else if ownedWhenEmpty && !needed[index][group] {
                continue
            } else {
                decision = .insert
            }
            decisions[index][group] = decision
            for link in 0..<table.linkCount {
                let destination = record.link(link, in: table)
                guard destination >= 0, keepsLink(decision, link, index) else { continue }
                guard let target = destinations[index][link] else {
                    preconditionFailure("\(table.entity.name) records link to \(table.entity.toOneRelationships[link].destinationName) records missing from this save")
                }
                needed[target][Int(destination)] = true
            }
            for set in 0..<table.setCount where keepsSet(decision) {
                guard let members = record.members(set, in: table) else { continue }
                guard let target = pairs.destinations[index][set] else {
                    preconditionFailure("\(table.entity.name) records give members of \(table.entity.manyToManyRelationships[set].name) from \(table.entity.manyToManyRelationships[set].destinationName) records missing from this save")
                }
                for member in members { needed[target][Int(member)] = true }
            }
        }
    }

    /// Reads the stored pairs of the rows whose sets the records replace.
    private mutating func readPairs(_ index: Int, _ writer: any StoreWriter) throws {
        let table = tables[index]
        for set in 0..<table.setCount {
            var owners: [Int64] = []
            for group in 0..<table.groupCount {
                guard case .merge(let row, _, _) = decisions[index][group], keepsSet(decisions[index][group]),
                    merged[index][group].members(set, in: table) != nil else { continue }
                owners.append(row.rowID)
            }
            if !owners.isEmpty { try pairs.read(index, set, owners: owners, writer) }
        }
    }

    /// Whether a group's link `link` ends up in its row.
    func keepsLink(_ decision: Decision, _ link: Int, _ index: Int) -> Bool {
        switch decision {
        case .skip: false
        case .insert: true
        case .merge(let row, _, _): takesLink(found[index].value(row.index, tables[index].width + link))
        }
    }

    /// Whether a group's member sets (those it gives) end up in its row's pairs: a new row's always,
    /// a stored row's by the policy's rule for member sets.
    func keepsSet(_ decision: Decision) -> Bool {
        switch decision {
        case .skip: false
        case .insert: true
        case .merge: policy.newValueWins(.memberSet, storedIsEmpty: false)
        }
    }

    /// Whether a record's link replaces a stored row's: the policy's rule for to-ones.
    func takesLink(_ stored: StoredValue) -> Bool {
        policy.newValueWins(.toOne, storedIsEmpty: stored == .null)
    }

    /// Destinations before the tables that link to them.
    private static func writeOrder(_ destinations: [[Int?]]) -> [Int] {
        var order: [Int] = [], visiting: Set<Int> = []
        func visit(_ index: Int) {
            guard !order.contains(index), visiting.insert(index).inserted else { return }
            for case let target? in destinations[index] where target != index { visit(target) }
            order.append(index)
        }
        for index in destinations.indices { visit(index) }
        return order
    }
}

/// What a pass decided for one group of records.
enum Decision {
    /// Not written: an owner no written record links to, or a conflict.
    case skip
    case insert
    /// Merged into a stored row: `overwrite` (the records' values win) or not (the row keeps its
    /// values; only empty links are filled); `repeat` when this session stored the row itself.
    case merge(FoundRow, overwrite: Bool, repeat: Bool)
}

/// A stored row a pass found: its id, and its place in the table's ``FoundRows``.
struct FoundRow {
    let rowID: Int64
    let index: Int
}

/// What a committed pass tells its session.
struct ImportOutcome {
    var result = ImportResult()
    var storedRows: [String: SessionRowChanges] = [:]
    var rememberedRows: [String: RememberedRows] = [:]
    /// Rows the pass deleted (emptied owners), to forget.
    var forgotten: [String: Set<Int64>] = [:]
    var lookedUp: Set<String> = []
    var assumedNew: Set<String> = []
    var foundNone: Set<String> = []
}

extension EntityDescription {
    /// Whether a row of this entity is deleted when it has no members (a to-many with `deletesOwnerWhenEmpty`).
    var isDeletedWhenEmpty: Bool { relationships.contains { $0.isToMany && $0.deletesOwnerWhenEmpty } }
}
