#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads persistent history inside one read transaction (see ``PersistentContainer/history(after:author:entity:limit:)``).
struct HistoryReader {
    let storage: any HistoryStorage

    /// The highest token deleted.
    func prunedThrough() throws -> Int64 {
        if case .integer(let token) = try storage.historyRows(HistoryTables.prunedThrough, []).first?.first { return token }
        return 0
    }

    func currentToken() throws -> HistoryToken {
        let latest = if case .integer(let token) = try storage.historyRows(HistoryTables.latestToken, []).first?.first { token } else { Int64(0) }
        return HistoryToken(max(latest, try prunedThrough()))
    }

    func history(after token: HistoryToken, author: String?, entity: String?, limit: Int?) throws -> PersistentHistory {
        guard token.value >= (try prunedThrough()) else { throw GraphStoreError.historyTokenExpired(token) }
        return try history(after: .integer(token.value), byTime: false, floor: token, author: author, entity: entity, limit: limit)
    }

    /// The transactions committed after `date` (what was deleted before it is simply not there).
    func history(after date: Date, author: String?, entity: String?, limit: Int?) throws -> PersistentHistory {
        try history(after: .real(date.timeIntervalSince1970), byTime: true, floor: .start, author: author, entity: entity, limit: limit)
    }

    private func history(after bound: StoredValue, byTime: Bool, floor token: HistoryToken, author: String?, entity: String?, limit: Int?) throws -> PersistentHistory {
        let current = max(try currentToken(), token)
        var transactions = try storage.historyRows(
            HistoryTables.transactionsAfter(author: author != nil, limit: limit, byTime: byTime), [bound] + (author.map { [.text($0)] } ?? [])
        ).map { try transaction($0) }
        let next = limit.map { transactions.count >= $0 } == true ? transactions.last!.token : current
        if let entity {
            for index in transactions.indices { transactions[index].changes.removeAll { $0.entity != entity } }
            transactions.removeAll { $0.changes.isEmpty }
        }
        return PersistentHistory(transactions: transactions, token: next)
    }

    private func transaction(_ row: [StoredValue]) throws -> HistoryTransaction {
        let token = if case .integer(let token) = row[0] { token } else { Int64(0) }
        let seconds = if case .real(let seconds) = row[1] { seconds } else if case .integer(let seconds) = row[1] { Double(seconds) } else { 0.0 }
        return HistoryTransaction(token: HistoryToken(token), date: Date(timeIntervalSince1970: seconds), author: Self.text(row[2]), contextName: Self.text(row[3]),
                                  changes: try HistoryJSON.decodeChanges(Self.text(row[4]) ?? "[]"))
    }

    private static func text(_ value: StoredValue) -> String? { if case .text(let text) = value { text } else { nil } }
}
