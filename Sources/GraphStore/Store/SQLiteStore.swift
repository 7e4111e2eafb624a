internal import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// The SQLite store: a file (WAL, foreign keys on, busy timeout) or memory, with identical rules.
final class SQLiteStore: PersistentStore, NamedLocking {
    let model: ManagedObjectModel
    /// The file's path (":memory:" for memory), named by `storeUnavailable`.
    private let path: String
    private let database: any DatabaseWriter
    private let statements: StoreStatements
    private let watch: SQLiteReadWatch

    init(model: ManagedObjectModel, location: StoreLocation, busyTimeout: Double, readOnly: Bool,
         interruption: ReadInterruption) throws(GraphStoreError) {
        self.model = model
        watch = SQLiteReadWatch(interruption)
        path = if case .file(let path) = location { path } else { ":memory:" }
        statements = StoreStatements(model: model, dialect: .sqlite)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            db.add(function: DatabaseFunction(FoldFunction.name, argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map(FoldFunction.fold)
            })
            if let connection = db.sqliteConnection {
                try NumericTextCollation.register(on: connection)
                try FoldContainsFunction.register(on: connection)
            }
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        }
        do {
            var needsPreparation = true
            switch location {
            case .inMemory:
                database = try DatabaseQueue(configuration: configuration)
            case .file(let path) where readOnly:
                configuration.readonly = true
                database = try Self.openReadOnly(path, model, configuration)
                needsPreparation = false
            case .postgres:
                preconditionFailure("a PostgreSQL location opens a PostgresStore")
            case .file(let path):
                needsPreparation = try StoreMigrator.checkCompatibility(path: path, model: model, busyTimeout: busyTimeout)
                database = try Self.openPool(path, configuration, busyTimeout: busyTimeout)
            }
            if needsPreparation { try database.write { db in try StoreMigrator(model: model).prepare(SQLiteSchemaConnection(db: db)) } }
        } catch let error as GraphStoreError {
            throw error
        } catch {
            throw Self.openingError(error, location: location)
        }
    }

    /// A refused read-only open closes its connection and removes the `-wal`/`-shm` it made.
    private static func openReadOnly(_ path: String, _ model: ManagedObjectModel, _ configuration: Configuration) throws -> DatabaseQueue {
        let leftovers = WALLeftovers(path: path)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        do {
            try queue.read { db in try StoreMigrator(model: model).checkCurrent(SQLiteSchemaConnection(db: db)) }
            return queue
        } catch {
            try? queue.close()
            leftovers.remove()
            throw error
        }
    }

    /// Opens the WAL pool, waiting out SQLITE_BUSY like any other lock: switching a new file to WAL
    /// needs it alone, and SQLite does not call the busy handler for that.
    private static func openPool(_ path: String, _ configuration: Configuration, busyTimeout: Double) throws -> DatabasePool {
        let deadline = ContinuousClock.now + .milliseconds(Int(busyTimeout * 1000))
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && ContinuousClock.now < deadline {
                usleep(10_000)
            }
        }
    }

    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        do {
            return try database.read { db in
                try watch.run(db) { try body(SQLiteStoreConnection(db: db, model: model, statements: statements)) }
            }
        } catch let error as DatabaseError {
            throw storeError(error, reading: true)
        }
    }

    /// (`PRAGMA defer_foreign_keys` expires every prepared statement of the connection, SQLite's
    /// rule for flag pragmas: an import's large lookups would be compiled again in each transaction.)
    func write<T>(deferringForeignKeys: Bool, _ body: (any StoreWriter) throws -> T) throws -> T {
        do {
            var result: T?
            try database.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    if deferringForeignKeys { try db.execute(sql: "PRAGMA defer_foreign_keys = ON") }
                    result = try body(SQLiteStoreConnection(db: db, model: model, statements: statements))
                    return .commit
                }
            }
            return result!
        } catch let error as DatabaseError {
            throw storeError(error, reading: false)
        }
    }

    private func storeError(_ error: DatabaseError, reading: Bool) -> GraphStoreError {
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            .storeUnavailable(path: path, reason: error.message ?? "\(error)", kind: StoreFailure.Kind(error.extendedResultCode))
        default: reading ? .readFailed(StoreFailure(error)) : .writeFailed(StoreFailure(error))
        }
    }

    /// SQLite's message, with its extended code when that says more (which I/O call failed).
    private static func detailed(_ error: DatabaseError) -> String { StoreFailure(error).description }

    private static func openingError(_ error: any Error, location: StoreLocation) -> GraphStoreError {
        let path = if case .file(let path) = location { path } else { ":memory:" }
        guard let error = error as? DatabaseError else { return .storeUnavailable(path: path, reason: "\(error)") }
        let reason = switch error.resultCode {
        case .SQLITE_NOTADB: "not a SQLite database"
        case .SQLITE_CORRUPT: "the database file is corrupt"
        case .SQLITE_CANTOPEN: "cannot open the file"
        case .SQLITE_READONLY: "the file is read-only"
        default: detailed(error)
        }
        return .storeUnavailable(path: path, reason: reason, kind: StoreFailure.Kind(error.extendedResultCode))
    }
}
