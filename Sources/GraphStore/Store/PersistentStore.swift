/// The one abstraction between contexts and storage. The SQLite store (file or memory) and the
/// PostgreSQL store implement it, without touching contexts or models.
protocol PersistentStore: Sendable {
    var model: ManagedObjectModel { get }
    /// Runs `body` against a consistent snapshot of the store.
    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    /// Foreign keys are declared deferred (checked at commit); `deferringForeignKeys` defers their
    /// `RESTRICT` actions too, which a save that deletes needs (it may empty a `.deny` relationship
    /// after deleting its owner).
    func write<T>(deferringForeignKeys: Bool, _ body: (any StoreWriter) throws -> T) throws -> T
}

/// Named locks, a kind of store's own (a file's `flock`, PostgreSQL's advisory locks). Taken before
/// any container opens the store, so they take no store instance.
protocol NamedLocking {
    /// Takes the lock `name` that every process using the store at `location` shares (see
    /// ``StoreLock``): nil when another process holds it past `waiting`.
    static func lock(named name: String, at location: StoreLocation, _ waiting: LockWait) throws(GraphStoreError) -> StoreLock?
    /// Whether a process holds the lock `name` on the store at `location` now, found without taking it.
    static func isLocked(named name: String, at location: StoreLocation) throws(GraphStoreError) -> Bool
}

/// Reading rows. Row values follow ``EntityDescription/columns`` order.
protocol StoreReader {
    func fetch(_ query: StoreQuery) throws -> [StoredRow]
    /// The rows `query` matches, column by column (`query.columns` names them).
    func fetchColumns(_ query: StoreQuery) throws -> StoredColumns
    /// The rows of `entity` whose unique `keyColumn` holds one of `keys` (at most 500), with the
    /// values of `columns`: an import's lookup. Each row says which key found it.
    func lookUp(_ entity: EntityDescription, keyColumn: String, keys: [StoredValue], columns: [String]) throws -> KeyedRows
    func count(_ query: StoreQuery) throws -> Int
    /// Row counts per non-null value of a foreign key column.
    func groupCounts(entity: String, column: String) throws -> [Int64: Int]
    /// The same for the values in `owners` only (those with no row are left out).
    func groupCounts(entity: String, column: String, owners: [Int64]) throws -> [Int64: Int]
    /// Which of `candidates` (rows of `owner`) no row of `member` points at through `column`.
    func ownersWithoutMembers(owner: String, candidates: [Int64], member: String, column: String) throws -> [Int64]
    func rows(of entity: EntityDescription, rowIDs: [Int64]) throws -> [StoredRow]
    /// Rows whose values for `columns` equal one of `keys` (unique-constraint conflict detection, in batches).
    func rows(of entity: EntityDescription, columns: [String], matching keys: [[StoredValue]]) throws -> [StoredRow]
}

/// Writing rows, inside a transaction.
protocol StoreWriter: StoreReader {
    func insert(into entity: EntityDescription, values: [StoredValue]) throws -> Int64
    /// Returns whether the row exists.
    @discardableResult
    func update(_ entity: EntityDescription, rowID: Int64, columns: [String], values: [StoredValue]) throws -> Bool
    func delete(from entity: EntityDescription, rowID: Int64) throws
    /// Runs `body` in a savepoint: its writes are undone when it throws, the transaction goes on.
    func savepoint<T>(_ body: () throws -> T) throws -> T
    /// Runs `body`, whose inserts, updates and deletes of `entity` the store may keep and send
    /// together when it returns (PostgreSQL does: one set-based statement for many rows): deletes
    /// first, then inserts, then updates. `body` reads nothing, and writes rows for which that
    /// order is as good as its own (distinct rows, or updates of rows it inserted); `inserts` is
    /// how many rows it expects to insert. A failed write throws when the batch is sent.
    func writingInBatch<T>(_ entity: EntityDescription, inserts: Int, _ body: () throws -> T) throws -> T
    /// How many writes ``writingInBatch(_:inserts:_:)`` keeps before it sends them (nil: each
    /// write goes at once). Persistent history reads a row before it changes, so it must know.
    var batchFlushSize: Int? { get }
    /// Names the transaction for persistent history: the author and the context's name. The save
    /// paths call it at the start of their write; a writer without history ignores it.
    func describeTransaction(author: String?, context: String?)
    /// Says that these rows of `entity` are about to be deleted (`known`: those the caller read in
    /// this transaction): persistent history then reads the others, and the rows pointing at them,
    /// in one query per 500 rows instead of one per delete. A writer without history ignores it.
    func willDelete(from entity: EntityDescription, rowIDs: [Int64], known: [StoredRow]) throws
    /// Says that these rows of `entity`, which the caller has not read in this transaction, are
    /// about to be updated: persistent history then reads them in one query per 500 rows instead
    /// of one per update (SQLite writes at once; a store that batches reads them as it sends).
    func willUpdate(_ entity: EntityDescription, rowIDs: [Int64]) throws
    /// The same transaction, for schema changes (``IndexesAfterImport``).
    var schema: any SchemaConnection { get }
}

extension StoreWriter {
    var batchFlushSize: Int? { nil }
    func describeTransaction(author: String?, context: String?) {}
    func willDelete(from entity: EntityDescription, rowIDs: [Int64], known: [StoredRow]) throws {}
    func willUpdate(_ entity: EntityDescription, rowIDs: [Int64]) throws {}
}

extension StoreWriter {
    /// SQLite writes each row at once: a statement per row costs no round trip there.
    func writingInBatch<T>(_ entity: EntityDescription, inserts: Int, _ body: () throws -> T) throws -> T {
        try body()
    }
}

extension StoreWriter {
    /// Deletes the owners in `vacated` ("member.relationship" → rows a foreign key stopped pointing
    /// at) that are left without members, where the owner's to-many has `deletesOwnerWhenEmpty`
    /// (one query per relationship). Returns the deleted rows.
    func deleteEmptiedOwners(_ vacated: [String: Set<Int64>], model: ManagedObjectModel) throws -> [ObjectID] {
        var deleted: [ObjectID] = []
        for member in model.entities {
            for relationship in member.toOneRelationships {
                guard let candidates = vacated[member.name + "." + relationship.name],
                    let inverseName = relationship.inverseName,
                    relationship.destinationEntity.relationship(named: inverseName)?.deletesOwnerWhenEmpty == true
                else { continue }
                let owner = relationship.destinationEntity
                let emptied = try ownersWithoutMembers(owner: owner.name, candidates: Array(candidates), member: member.name, column: relationship.name)
                try willDelete(from: owner, rowIDs: emptied, known: [])
                for rowID in emptied {
                    try delete(from: owner, rowID: rowID)
                    deleted.append(.permanent(owner.name, rowID))
                }
            }
        }
        return deleted
    }
}

/// Rows read column by column: `values[c][r]` is column `c` of the row `rowIDs[r]`.
struct StoredColumns: Sendable {
    var rowIDs: [Int64] = []
    var values: [[StoredValue]]
}

/// Rows found by key (``StoreReader/lookUp(_:keyColumn:keys:columns:)``): `positions[r]` is the
/// index, in the keys asked for, of the key that found row `r`.
struct KeyedRows {
    var positions: [Int] = []
    var columns: StoredColumns
}

extension StoreReader {
    func lookUp(_ entity: EntityDescription, keyColumn: String, keys: [StoredValue], columns: [String]) throws -> KeyedRows {
        try lookUpByIN(entity, keyColumn: keyColumn, keys: keys, columns: columns)
    }

    /// The lookup as an `IN` query, each row's key found again by hashing (PostgreSQL's; SQLite
    /// walks the keys as a JSON array, see ``SQLiteStoreConnection``).
    func lookUpByIN(_ entity: EntityDescription, keyColumn: String, keys: [StoredValue], columns: [String]) throws -> KeyedRows {
        let query = StoreQuery(entity: entity.name, predicate: .isIn(column: keyColumn, keys), columns: columns + [keyColumn])
        var found = KeyedRows(columns: try fetchColumns(query))
        let positionOfKey = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let keyValues = found.columns.values.removeLast()
        found.positions = keyValues.map { positionOfKey[$0] ?? -1 }
        return found
    }
}

/// A write broke a unique index: a row with the same unique values exists. An import save runs
/// again on it, looking its keys up (see ``ImportSession``); a context's save reports `writeFailed`.
struct UniqueViolation: Error {
    let failure: StoreFailure
}

/// Another connection's transaction overlapped this one's reads and writes (PostgreSQL's
/// serialization failure or deadlock): the save runs again from its lookups, as a
/// ``UniqueViolation`` does, so its merge policy decides as if it had run alone.
struct SerializationFailure: Error {
    let failure: StoreFailure
}

/// One stored row: its id and its column values.
struct StoredRow: Sendable {
    let rowID: Int64
    let values: [StoredValue]
}

