extension PersistentContainer {
    /// A waiter for the transactions other containers and processes commit (see ``HistoryWaiter``).
    ///
    /// - Parameter pollInterval: how often a SQLite store's file is looked at (PostgreSQL is told
    ///   at each commit and never polls).
    /// - Throws: `storeUnavailable` when PostgreSQL cannot be reached; `readFailed` when the file
    ///   cannot be opened.
    public func historyWaiter(pollInterval: Duration = .seconds(1)) throws(GraphStoreError) -> HistoryWaiter {
        do {
            let signal: any HistorySignal = if let postgres = unrecordedStore as? PostgresStore {
                try PostgresHistoryListener(postgres)
            } else if let path = location.filePath {
                try SQLiteHistoryPoller(path: path, interval: pollInterval)
            } else {
                HistoryTokenPoller(self, interval: pollInterval)
            }
            return HistoryWaiter(self, signal: signal)
        } catch let error as GraphStoreError {
            throw error
        } catch {
            throw .readFailed(StoreFailure(kind: .other, message: "\(error)"))
        }
    }
}
