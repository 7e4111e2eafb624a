import Foundation
import GraphStore

/// `photosync changes`: the catalog's persistent history as photo and photographer changes.
extension Catalog {
    /// Where the changes start.
    public enum ChangesStart: Sendable, Equatable {
        /// After a token a previous `changes` printed.
        case token(String)
        /// After the last transaction of fetch run N.
        case run(Int)
        /// After a time.
        case time(Date)
        /// The last fetch run's changes.
        case lastRun
    }

    /// The changes after `start`, oldest first, of run `run` only and about `photographer` only
    /// when given, and the token to pass next time.
    /// - Throws: `PhotoSyncError.conflict` (65) when that history was pruned; `.usage` for a bad token.
    public func changes(since start: ChangesStart, run: Int?, photographer: String?) throws -> (changes: [CatalogChange], token: String) {
        do {
            var author = run.map(Self.author(ofRun:))
            let page: PersistentHistory
            switch start {
            case .token(let text):
                guard let token = HistoryToken(text) else { throw PhotoSyncError.usage("--since \(text): not a token, run:N or a time") }
                page = try container.history(after: token, author: author)
            case .run(let number):
                page = try container.history(after: try lastToken(ofRun: number), author: author)
            case .time(let date):
                page = try container.history(after: date, author: author)
            case .lastRun:
                guard let last = try lastRunID() else { return ([], try container.currentHistoryToken().description) }
                author = author ?? Self.author(ofRun: last)
                page = try container.history(after: date(before: last), author: author)
            }
            let changes = page.transactions.flatMap { transaction in transaction.changes.compactMap { CatalogChange($0, of: transaction) } }
            return (try photographer.map { name in try self.changes(changes, about: name) } ?? changes, page.token.description)
        } catch GraphStoreError.historyTokenExpired {
            throw PhotoSyncError.conflict("history before that point was pruned (history_days); start again with --since TIME")
        } catch let error as GraphStoreError {
            throw PhotoSyncError.from(error, path: path)
        }
    }

    static func author(ofRun run: Int) -> String { "fetch run \(run)" }

    /// What `changes --follow` waits on: told by PostgreSQL at each commit, or looking at the
    /// SQLite file every `pollInterval`.
    func changesWaiter(pollInterval: Duration) throws -> HistoryWaiter {
        do {
            return try container.historyWaiter(pollInterval: pollInterval)
        } catch {
            throw PhotoSyncError.from(error, path: path)
        }
    }

    /// Waits (a minute at most) until changes may have committed after `token`, or `stop` says so.
    func waitForChanges(_ waiter: HistoryWaiter, after token: String, until stop: () -> Bool) throws -> Bool {
        guard let token = HistoryToken(token) else { return true }
        do {
            return try waiter.wait(after: token, timeout: .seconds(60), until: stop)
        } catch {
            throw PhotoSyncError.from(error, path: path)
        }
    }

    /// Deletes the history committed before `date`: a reader of a token from then exits 65.
    func pruneHistory(before date: Date) throws {
        do {
            try container.deleteHistory(before: date)
        } catch let error as GraphStoreError {
            throw PhotoSyncError.from(error, path: path)
        }
    }

    private func lastToken(ofRun run: Int) throws -> HistoryToken {
        guard let token = try container.history(after: Date.distantPast, author: Self.author(ofRun: run)).transactions.last?.token else {
            throw PhotoSyncError.notFound("no changes recorded for run \(run)")
        }
        return token
    }

    private func lastRunID() throws -> Int? {
        try withContext { context in
            try context.fetch(FetchRequest<FetchRun>(sortBy: [.descending(\.$started)], limit: 1)).first?.objectID.rowID.map(Int.init)
        }
    }

    /// Just before run `run` started.
    private func date(before run: Int) throws -> Date {
        try withContext { context in
            let runs = try context.fetch(FetchRequest<FetchRun>(sortBy: [.descending(\.$started)], limit: 1))
            return (runs.first?.started ?? Date.distantPast).addingTimeInterval(-1)
        }
    }
}
