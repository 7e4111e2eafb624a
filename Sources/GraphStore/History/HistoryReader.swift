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
        let current = max(try currentToken(), token)
        var transactions = try storage.historyRows(
            HistoryTables.transactionsAfter(author: author != nil, limit: limit), [.integer(token.value)] + (author.map { [.text($0)] } ?? [])
        ).map(transaction)
        let next = limit.map { transactions.count >= $0 } == true ? transactions.last!.token : current
        guard let first = transactions.first, let last = transactions.last else { return PersistentHistory(transactions: [], token: next) }
        var changes: [Int64: [HistoryChange]] = [:]
        let bounds: [StoredValue] = [.integer(first.token.value), .integer(last.token.value)] + (entity.map { [.text($0)] } ?? [])
        for row in try storage.historyRows(HistoryTables.changesOf(entity: entity != nil), bounds) {
            guard case .integer(let owner) = row[0] else { continue }
            changes[owner, default: []].append(try change(row))
        }
        for index in transactions.indices { transactions[index].changes = changes[transactions[index].token.value] ?? [] }
        if entity != nil { transactions.removeAll { $0.changes.isEmpty } }
        return PersistentHistory(transactions: transactions, token: next)
    }

    private func transaction(_ row: [StoredValue]) -> HistoryTransaction {
        let token = if case .integer(let token) = row[0] { token } else { Int64(0) }
        let seconds = if case .real(let seconds) = row[1] { seconds } else if case .integer(let seconds) = row[1] { Double(seconds) } else { 0.0 }
        return HistoryTransaction(token: HistoryToken(token), date: Date(timeIntervalSince1970: seconds), author: Self.text(row[2]), contextName: Self.text(row[3]), changes: [])
    }

    private static func text(_ value: StoredValue) -> String? { if case .text(let text) = value { text } else { nil } }

    private func change(_ row: [StoredValue]) throws -> HistoryChange {
        guard case .text(let entity) = row[1], case .text(let key) = row[2], case .integer(let kind) = row[3],
            let kind = HistoryChange.Kind(rawValue: Int(kind)), case .text(let fields) = row[4]
        else { throw GraphStoreError.readFailed(StoreFailure(message: "a history change row is malformed", resultCode: 0, extendedResultCode: 0)) }
        let decoded = try HistoryJSON.decodeFields(fields)
        return HistoryChange(entity: entity, key: try HistoryJSON.decodeValue(key), kind: kind, changedAttributes: decoded.changed,
                             values: decoded.values, tombstone: decoded.tombstone)
    }
}
