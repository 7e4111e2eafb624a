extension SearchIndex {
    /// Brings the index to `reader`'s snapshot (whose newest token is `current`): the rows inserted, or whose indexed attributes
    /// changed, since the index's token are added again (deleted rows stay: extra candidates
    /// only). Nothing is read but the token when nothing changed; the file is then not written.
    ///
    /// Afterwards every row of the snapshot is indexed, or above the new mark: a row above the
    /// old mark was inserted after the build's token, so it is in the history read here or before.
    /// - Throws: ``GraphStoreError/historyTokenExpired(_:)`` when the history was pruned past the
    ///   index's token (the index must be built again).
    func catchUp(_ file: SearchIndexFile, _ facts: SearchIndexFile.Facts, to current: HistoryToken, _ reader: any StoreReader) throws -> SearchIndexFile.Facts {
        guard current.value > facts.token, let storage = reader as? any HistoryStorage else { return facts }
        let history = try HistoryReader(storage: storage).history(after: HistoryToken(facts.token), author: nil, entity: entity.name, limit: nil)
        let indexed = Set(columns)
        var keys: [StoredValue] = []
        var seen = Set<StoredValue>()
        for change in history.transactions.flatMap(\.changes) where change.kind == .inserted
            || (change.kind == .updated && !indexed.isDisjoint(with: change.changedAttributes))
        {
            if seen.insert(change.key).inserted { keys.append(change.key) }
        }
        var documents: [(Int64, String)] = []
        for start in stride(from: 0, to: keys.count, by: 500) {
            documents += try rows(keyed: Array(keys[start..<min(start + 500, keys.count)]), reader)
        }
        // Every row above the old mark came after the index's token, so it is among those just read.
        let next = SearchIndexFile.Facts(identity: try identity(at: history.token, reader) ?? "", token: history.token.value,
                                         mark: max(facts.mark, documents.map(\.0).max() ?? 0))
        try file.add(documents, facts: next)
        return next
    }

    /// The rows history names by `keys` (the entity's unique key, else row ids) that still exist.
    private func rows(keyed keys: [StoredValue], _ reader: any StoreReader) throws -> [(Int64, String)] {
        if let key = entity.historyKeyColumn {
            return Self.documents(try reader.lookUp(entity, keyColumn: entity.columns[key], keys: keys, columns: columns).columns)
        }
        return Self.documents(try reader.fetchColumns(StoreQuery(entity: entity.name, predicate: .isIn(column: "id", keys), columns: columns)))
    }
}
