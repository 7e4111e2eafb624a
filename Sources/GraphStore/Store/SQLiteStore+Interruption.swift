import Synchronization
internal import GRDB
internal import GRDBSQLite

/// Ending SQLite reads (``ReadInterruption``) two ways. `sqlite3_interrupt` stops the statements
/// running on the read connections at once, but only those: the read's next statement, or one
/// starting an instant later, would run to its end. So each read also carries a progress handler
/// that looks at the switch every ``interval`` virtual machine steps. Writes carry neither.
final class SQLiteReadWatch: Sendable {
    static let interval: Int32 = 100
    /// The connections serving a read now (their `sqlite3` handles).
    private let reading = Mutex<Set<UInt>>([])
    private let interruption: ReadInterruption

    init(_ interruption: ReadInterruption) {
        self.interruption = interruption
        interruption.onInterrupt { [weak self] in
            self?.reading.withLock { for key in $0 { sqlite3_interrupt(OpaquePointer(bitPattern: key)) } }
        }
    }

    func run<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        guard let connection = db.sqliteConnection else { return try body() }
        let key = UInt(bitPattern: Int(bitPattern: connection))
        reading.withLock { _ = $0.insert(key) }
        defer { reading.withLock { _ = $0.remove(key) } }
        guard !interruption.isRequested else { throw GraphStoreError.readFailed(ReadInterruption.failure) }
        sqlite3_progress_handler(connection, Self.interval, { context in
            Unmanaged<ReadInterruption>.fromOpaque(context!).takeUnretainedValue().isRequested ? 1 : 0
        }, Unmanaged.passUnretained(interruption).toOpaque())
        defer { sqlite3_progress_handler(connection, 0, nil, nil) }
        return try body()
    }
}
