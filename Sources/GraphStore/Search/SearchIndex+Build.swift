#if canImport(Glibc)
import Glibc
#endif

extension SearchIndex {
    /// Ids read and indexed at a time (at most this many rows): a short read, so a read-only
    /// store's other readers (one connection) wait for a page, not for the whole build.
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
                let end = min(last + Int64(Self.pageSize), facts.mark)
                let page = try container.store.read { reader in try documents(after: last, through: end, reader) }
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

    /// The rows with ids in (`last`, `end`], as (id, document): a window of ids rather than a sorted
    /// page, which PostgreSQL would sort whole (its primary key does not serve GraphStore's
    /// `ASC NULLS FIRST`: on 1M photos the build took 40-78 s instead of seconds).
    private func documents(after last: Int64, through end: Int64, _ reader: any StoreReader) throws -> [(Int64, String)] {
        let range: PredicateNode = .and([.compare(column: "id", .greater, .integer(last)), .compare(column: "id", .lessOrEqual, .integer(end))])
        return Self.documents(try reader.fetchColumns(StoreQuery(entity: entity.name, predicate: range, columns: columns)))
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

    /// Whether a row has an id above `mark`: a range on the primary key on either store (PostgreSQL
    /// sorts every row for `ORDER BY id DESC NULLS LAST`, 95 ms on 1M, which ``highestID(_:)`` pays once a build).
    func hasRow(above mark: Int64, _ reader: any StoreReader) throws -> Bool {
        let query = StoreQuery(entity: entity.name, predicate: .compare(column: "id", .greater, .integer(mark)), limit: 1, columns: [])
        return !(try reader.fetchColumns(query).rowIDs.isEmpty)
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
