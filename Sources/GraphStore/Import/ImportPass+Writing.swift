/// Writing a judged pass: each table's groups in one batch, destinations first, then its join rows;
/// owners a save empties are deleted last.
extension ImportPass {
    /// The groups' rows, in one batch: the groups are distinct keys, so distinct rows, and the
    /// store may send them together (PostgreSQL does, set-based).
    mutating func write(_ index: Int, _ writer: any StoreWriter) throws {
        try announceRememberedUpdates(index, writer)
        let inserts = decisions[index].reduce(0) { count, decision in if case .insert = decision { count + 1 } else { count } }
        try writer.writingInBatch(tables[index].entity, inserts: inserts) { try writeGroups(index, writer) }
        try pairs.flush(index, writer)
    }

    /// (Not inlined into the batch's closure: values captured there are retained at every use,
    /// 2% more instructions for a SQLite import.)
    private mutating func writeGroups(_ index: Int, _ writer: any StoreWriter) throws {
        let table = tables[index], entity = table.entity, name = entity.name
        let remembers = isLinkedTo(index)
        var counts = ImportCounts()
        var rows = outcome.storedRows[name] ?? SessionRowChanges()
        let sessionRows = session.stored[name]
        var remembered = RememberedRows()
        for group in 0..<table.groupCount {
            let record = merged[index][group], copies = table.size(of: group)
            switch decisions[index][group] {
            case .skip: continue
            case .insert:
                let values = try insertedValues(record, index)
                let rowID = try writer.insert(into: entity, values: values)
                rowIDs[index][group] = rowID
                _ = replaceSets(record, index, owner: rowID)
                rows.noteInserted(rowID)
                counts.inserted += 1
                counts.repeated += copies - 1
                outcome.result.changes.inserted[name, default: []].insert(.permanent(name, rowID))
                if remembers { remembered.set(table.keys[group], StoredRow(rowID: rowID, values: values)) }
            case .merge(let row, let overwrite, let isRepeat):
                let changed = changes(record, row, index, overwrite: overwrite)
                let paired = keepsSet(decisions[index][group]) && replaceSets(record, index, owner: row.rowID)
                if !changed.isEmpty {
                    try writer.update(entity, rowID: row.rowID, columns: changed.map { entity.columns[$0.column] }, values: changed.map(\.value),
                                      knownRow: found[index].storedValues(row.index))
                    for change in changed where change.column >= table.width {
                        vacate(entity, change.column - table.width, found[index].value(row.index, change.column))
                    }
                }
                if !changed.isEmpty || paired { outcome.result.changes.updated[name, default: []].insert(.permanent(name, row.rowID)) }
                rowIDs[index][group] = row.rowID
                if isRepeat {
                    counts.repeated += copies
                    if (!changed.isEmpty || paired) && sessionRows?.isCountedUnchanged(row.rowID) == true {
                        (counts.unchanged, counts.updated) = (counts.unchanged - 1, counts.updated + 1)
                        rows.noteMet(row.rowID, unchanged: false)
                    }
                } else {
                    let unchanged = changed.isEmpty && !paired
                    if unchanged { counts.unchanged += 1 } else { counts.updated += 1 }
                    counts.repeated += copies - 1
                    rows.noteMet(row.rowID, unchanged: unchanged)
                }
                // A remembered row the save left as it was is remembered already.
                if remembers && (!changed.isEmpty || !found[index].isRemembered(row.index)) {
                    var values = found[index].values(row.index)
                    for change in changed { values[change.column] = change.value }
                    remembered.set(table.keys[group], StoredRow(rowID: row.rowID, values: values))
                }
            }
        }
        outcome.storedRows[name] = rows
        outcome.rememberedRows[name] = remembered
        outcome.result.counts[name, default: ImportCounts()] += counts
    }

    /// Tells `writer` which remembered rows (read in an earlier transaction: nothing here says how
    /// they are stored now) the groups will change, so history reads them in one query, not one
    /// per update.
    private func announceRememberedUpdates(_ index: Int, _ writer: any StoreWriter) throws {
        guard found[index].rememberedCount > 0 else { return }
        var rowIDs: [Int64] = []
        for group in 0..<tables[index].groupCount {
            guard case .merge(let row, let overwrite, _) = decisions[index][group], found[index].isRemembered(row.index),
                !changes(merged[index][group], row, index, overwrite: overwrite).isEmpty else { continue }
            rowIDs.append(row.rowID)
        }
        if !rowIDs.isEmpty { try writer.willUpdate(tables[index].entity, rowIDs: rowIDs) }
    }

    /// A new row: the record's values over the declared defaults, its links as foreign keys.
    private func insertedValues(_ record: MergedRecord, _ index: Int) throws -> [StoredValue] {
        let table = tables[index]
        var values: [StoredValue] = []
        values.reserveCapacity(table.entity.columns.count)
        for (attribute, description) in table.entity.storedAttributes.enumerated() {
            values.append(record.isAssigned(attribute) ? record.value(attribute, in: table) : description.defaultValue)
        }
        for link in 0..<table.linkCount { values.append(foreignKey(record, index, link) ?? .null) }
        return values
    }

    /// The columns of a stored row the merge changes, with their new values: the record's where it
    /// overwrites, its links where kept.
    private func changes(_ record: MergedRecord, _ row: FoundRow, _ index: Int, overwrite: Bool) -> [(column: Int, value: StoredValue)] {
        let (table, stored) = (tables[index], found[index])
        var changed: [(column: Int, value: StoredValue)] = []
        if overwrite {
            for attribute in 0..<table.width where record.isAssigned(attribute) && !table.isInsertOnly(attribute) {
                let value = record.value(attribute, in: table)
                if value != stored.value(row.index, attribute) { changed.append((attribute, value)) }
            }
        }
        for link in 0..<table.linkCount where record.link(link, in: table) >= 0 && takesLink(stored.value(row.index, table.width + link)) {
            let value = foreignKey(record, index, link) ?? .null
            if value != stored.value(row.index, table.width + link) { changed.append((table.width + link, value)) }
        }
        return changed
    }

    private func foreignKey(_ record: MergedRecord, _ index: Int, _ link: Int) -> StoredValue? {
        let target = record.link(link, in: tables[index])
        guard target >= 0, let table = destinations[index][link], let rowID = rowIDs[table][Int(target)] else { return nil }
        return .integer(rowID)
    }

    private mutating func vacate(_ entity: EntityDescription, _ link: Int, _ old: StoredValue) {
        guard case .integer(let rowID) = old else { return }
        vacated[entity.name + "." + entity.toOneRelationships[link].name, default: []].insert(rowID)
    }

    mutating func deleteEmptiedOwners(_ writer: any StoreWriter) throws {
        guard !vacated.isEmpty else { return }
        for id in try writer.deleteEmptiedOwners(vacated, model: session.container.model) {
            outcome.result.changes.deleted[id.entityName, default: []].insert(id)
            outcome.result.counts[id.entityName, default: ImportCounts()].deleted += 1
            if let rowID = id.rowID { outcome.forgotten[id.entityName, default: []].insert(rowID) }
        }
    }

    /// Makes the pairs of `owner` the sets `record` gives; returns whether a pair changed.
    private mutating func replaceSets(_ record: MergedRecord, _ index: Int, owner: Int64) -> Bool {
        var changed = false
        for set in 0..<tables[index].setCount {
            guard let members = record.members(set, in: tables[index]), let target = pairs.destinations[index][set] else { continue }
            let rows = Set(members.compactMap { rowIDs[target][Int($0)] })
            changed = pairs.replace(index, set, owner: owner, members: rows) || changed
        }
        return changed
    }
}
