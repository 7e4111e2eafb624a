#if canImport(Glibc)
import Glibc
#endif

extension SearchIndex {
    /// Rows read and indexed at a time: a short read, so a read-only store's other readers (one
    /// connection) wait for a page, not for the whole build.
    static var pageSize: Int { 5000 }

    /// Builds the index into a temporary file beside ``path``, then renames it over the old one:
    /// the file is never half-written. The token and the highest id are read in one snapshot
    /// first; a row changed while the pages are read is in the history after that token, which
    /// the first search catches up.
    func build() throws -> (Live, Int) {
        var facts = try container.store.read { reader in
            let token = try currentToken(reader)
            return SearchIndexFile.Facts(identity: try identity(at: token, reader) ?? "", token: token.value, mark: try highestID(reader))
        }
        let temporary = path + ".\(getpid()).tmp"
        let file = try SearchIndexFile.create(at: temporary)
        var rows = 0
        do {
            var last: Int64 = 0
            while last < facts.mark {
                let page = try container.store.read { reader in try documents(after: last, through: facts.mark, reader) }
                guard let end = page.last?.0 else { break }
                try file.add(page, facts: nil)
                (last, rows) = (end, rows + page.count)
            }
            try file.add([], facts: facts)
            try file.optimize()
            file.close()
            guard rename(temporary, path) == 0 else { throw SearchIndexProblem("cannot rename \(temporary): \(String(cString: strerror(errno)))") }
        } catch {
            file.close()
            unlink(temporary)
            throw error
        }
        guard let opened = SearchIndexFile.open(at: path) else { throw SearchIndexProblem("cannot reopen \(path)") }
        facts = opened.1
        return (Live(file: opened.0, facts: facts), rows)
    }

    /// Whether the file's facts are this store's, and its history still reaches their token.
    func isCurrent(_ facts: SearchIndexFile.Facts, _ reader: any StoreReader) throws -> Bool {
        guard !facts.identity.isEmpty, facts.identity == (try identity(at: HistoryToken(facts.token), reader)),
            let storage = reader as? any HistoryStorage
        else { return false }
        let history = HistoryReader(storage: storage)
        let (current, pruned) = (try history.currentToken().value, try history.prunedThrough())
        return facts.token <= current && facts.token >= pruned
    }

    /// Up to a page of rows after the id `last`, as (id, document) in id order.
    private func documents(after last: Int64, through mark: Int64, _ reader: any StoreReader) throws -> [(Int64, String)] {
        let range: PredicateNode = .and([.compare(column: "id", .greater, .integer(last)), .compare(column: "id", .lessOrEqual, .integer(mark))])
        let query = StoreQuery(entity: entity.name, predicate: range, sortBy: [SortNode(column: "id", ascending: true, collation: .binary)],
                               limit: Self.pageSize, columns: columns)
        return Self.documents(try reader.fetchColumns(query))
    }

    static func documents(_ rows: StoredColumns) -> [(Int64, String)] {
        rows.rowIDs.indices.map { row in
            (rows.rowIDs[row], SearchNeedle.document(rows.values.map { column in
                if case .text(let text) = column[row] { text } else { "" }
            }))
        }
    }

    /// What names the store and its state at `token`: the entity, the attributes, and the time
    /// of the transaction at the token, which another store (a catalog replaced at the same
    /// place) does not have. Nil without that transaction (no history yet, or pruned): an index
    /// then cannot be told apart, and is built again.
    func identity(at token: HistoryToken, _ reader: any StoreReader) throws -> String? {
        guard token.value > 0, let storage = reader as? any HistoryStorage,
            let time = try storage.historyRows("SELECT at FROM \(HistoryTables.transactions) WHERE token = ?", [.integer(token.value)]).first?.first
        else { return nil }
        return ([entity.name] + columns + ["\(time)"]).joined(separator: "\u{1F}")
    }

    func highestID(_ reader: any StoreReader) throws -> Int64 {
        try reader.fetchColumns(StoreQuery(entity: entity.name, sortBy: [SortNode(column: "id", ascending: false, collation: .binary)],
                                           limit: 1, columns: [])).rowIDs.first ?? 0
    }

    func currentToken(_ reader: any StoreReader) throws -> HistoryToken {
        guard let storage = reader as? any HistoryStorage, try HistoryTrackingStore.tablesExist(storage) else {
            throw SearchIndexProblem("the store keeps no persistent history, which the index catches up from")
        }
        return try HistoryReader(storage: storage).currentToken()
    }
}
