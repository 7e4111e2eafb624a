import Synchronization

/// The PostgreSQL store: the model's tables in one schema of a database that many processes share.
///
/// Writes run at `SERIALIZABLE`: a save's lookups, merge-policy decisions and writes behave as if
/// no other connection wrote meanwhile, or the save fails with a serialization failure and runs
/// again from its lookups (so do inserts that meet a key another writer stored first). `REPEATABLE
/// READ` would let two saves each delete one of an owner's last two members and both keep the
/// owner (`deletesOwnerWhenEmpty` reads what the other changes). Reads are one `REPEATABLE READ`
/// snapshot, which never waits and never fails for others' writes.
final class PostgresStore: PersistentStore, NamedLocking {
    let model: ManagedObjectModel
    /// The location with any password replaced, for messages.
    let description: String
    let conninfo: String
    private let readOnly: Bool
    private let statements: StoreStatements
    private let idle = Mutex<[PostgresConnection]>([])
    private let interruption: ReadInterruption
    /// The connections serving a read now, which an interruption cancels.
    private let reading = Mutex<[ObjectIdentifier: PostgresConnection]>([:])

    init(model: ManagedObjectModel, conninfo: String, readOnly: Bool, interruption: ReadInterruption) throws(GraphStoreError) {
        self.model = model
        self.interruption = interruption
        self.conninfo = conninfo
        self.readOnly = readOnly
        description = PostgresSQL.redacted(conninfo)
        statements = StoreStatements(model: model, dialect: .postgres)
        interruption.onInterrupt { [weak self] in
            for connection in self?.reading.withLock({ Array($0.values) }) ?? [] { connection.cancel() }
        }
        do {
            let connection = try connect()
            try prepare(connection)
            release(connection)
        } catch let error as GraphStoreError {
            throw error
        } catch {
            throw unavailable(error)
        }
    }

    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", reading: true, body)
    }

    /// Foreign keys are all `DEFERRABLE INITIALLY DEFERRED` (`.deny` is `NO ACTION`), so every
    /// write defers them already.
    func write<T>(deferringForeignKeys: Bool, _ body: (any StoreWriter) throws -> T) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL SERIALIZABLE" + (readOnly ? " READ ONLY" : ""), reading: false, body)
    }

    private func transaction<T>(_ begin: String, reading: Bool, _ body: (PostgresStoreConnection) throws -> T) throws -> T {
        let connection = try begun(begin, reading: reading)
        let store = PostgresStoreConnection(connection: connection, model: model, statements: statements)
        if reading { watch(connection, true) }
        do {
            let result = try body(store)
            if reading { watch(connection, false) }
            try store.command("COMMIT")
            release(connection)
            return result
        } catch {
            if reading { watch(connection, false) }
            _ = try? connection.execute("ROLLBACK")
            release(connection)
            if reading, interruption.isRequested { throw GraphStoreError.readFailed(ReadInterruption.failure) }
            throw Self.mapped(error, reading: reading)
        }
    }

    /// Starts or ends `connection`'s read under the interruption: its commands check the switch,
    /// and a thrown one cancels the command it runs.
    private func watch(_ connection: PostgresConnection, _ watched: Bool) {
        connection.interruption = watched ? interruption : nil
        reading.withLock { $0[ObjectIdentifier(connection)] = watched ? connection : nil }
    }

    /// An idle connection, or a new one, inside a transaction begun with `begin`. An idle connection
    /// the server closed meanwhile (restarted, or an idle timeout) is dropped for the next: nothing
    /// ran on it yet, so the transaction is not lost with it.
    private func begun(_ begin: String, reading: Bool) throws -> PostgresConnection {
        while let pooled = idle.withLock({ $0.popLast() }) {
            if try start(begin, on: pooled, reading: reading) { return pooled }
        }
        let connection: PostgresConnection
        do { connection = try connect() } catch { throw unavailable(error) }
        guard try start(begin, on: connection, reading: reading) else {
            throw unavailable(PostgresError(sqlState: nil, message: "the server closed the connection"))
        }
        return connection
    }

    /// Runs `begin` on `connection`: false when the connection turns out closed.
    private func start(_ begin: String, on connection: PostgresConnection, reading: Bool) throws -> Bool {
        do {
            try connection.execute(begin)
            return true
        } catch {
            if !connection.isConnected { return false }
            throw Self.mapped(error.storeError, reading: reading)
        }
    }

    /// A connection on the store's database (the one a probe left, else a new one); libpq's
    /// messages name the host, never the password.
    private func connect() throws -> PostgresConnection {
        let spare = Self.spare(for: conninfo).flatMap { $0.isReusable ? $0 : nil }
        let connection = try spare ?? PostgresConnection(conninfo: conninfo)
        let encoding = try connection.execute("SHOW server_encoding").value(0, 0)
        guard encoding == .text("UTF8") else {
            throw GraphStoreError.incompatibleStore("the database's encoding is \(encoding.text); GraphStore needs UTF8")
        }
        return connection
    }

    /// Creates or migrates the schema in one transaction, under a lock that makes processes opening
    /// a new store at once take turns; a refusal leaves the database as it was.
    private func prepare(_ connection: PostgresConnection) throws {
        let store = PostgresStoreConnection(connection: connection, model: model, statements: statements)
        let migrator = StoreMigrator(model: model)
        try store.command("BEGIN ISOLATION LEVEL READ COMMITTED" + (readOnly ? " READ ONLY" : ""))
        do {
            if readOnly {
                try migrator.checkCurrent(store)
            } else {
                try store.command("SELECT pg_advisory_xact_lock(\(Self.schemaLock))")
                if try StoreMigrator.needsPreparation(store, model: model) { try migrator.prepare(store) }
                try store.rebuildNullsLastIndexes(model)
            }
            try store.command("COMMIT")
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The advisory lock key that serializes schema creation and migration ("GraphSto" in ASCII).
    static let schemaLock: Int64 = 0x4772_6170_6853_746F

    private func release(_ connection: PostgresConnection) {
        guard connection.isReusable else { return }
        idle.withLock { $0.append(connection) }
    }

    private func unavailable(_ error: any Error) -> GraphStoreError {
        if let error = error as? GraphStoreError { return error }
        return switch error {
        case let error as PostgresError: error.unavailable(description, conninfo: conninfo)
        case let error as PostgresStatementError: .storeUnavailable(path: description, reason: error.failure.description, kind: error.failure.kind)
        default: .storeUnavailable(path: description, reason: "\(error)")
        }
    }

    /// Retries (``UniqueViolation``, ``SerializationFailure``) and GraphStore's own errors pass
    /// through; any other failure is `readFailed` or `writeFailed`.
    private static func mapped(_ error: any Error, reading: Bool) -> any Error {
        guard let error = error as? PostgresStatementError else { return error }
        return reading ? GraphStoreError.readFailed(error.failure) : GraphStoreError.writeFailed(error.failure)
    }
}
