/// A failed read or write of an open store: what happened (``kind``, the same for both stores),
/// and the engine's own words, as GRDB's `DatabaseError` keeps them: SQLite's message and result
/// codes, or PostgreSQL's message and SQLSTATE.
///
/// Switch on the kind; the codes are there for logs and for a caller that knows its engine.
///
/// ```swift
/// catch GraphStoreError.writeFailed(let failure) where failure.kind == .diskFull { ... }
/// ```
public struct StoreFailure: Sendable, Equatable, CustomStringConvertible {
    public let kind: Kind
    public let message: String
    /// SQLite's primary result code (`SQLITE_CONSTRAINT` is 19, `SQLITE_BUSY` 5); 0 for PostgreSQL.
    public let resultCode: Int32
    /// SQLite's extended result code (`SQLITE_CONSTRAINT_FOREIGNKEY` is 787): which constraint or
    /// which I/O call failed.
    public let extendedResultCode: Int32
    /// PostgreSQL's SQLSTATE (`23505` is a unique violation), for a PostgreSQL store; its result
    /// codes are then 0.
    public let sqlState: String?

    public init(kind: Kind, message: String, resultCode: Int32 = 0, extendedResultCode: Int32 = 0, sqlState: String? = nil) {
        self.kind = kind
        self.message = message
        self.resultCode = resultCode
        self.extendedResultCode = extendedResultCode
        self.sqlState = sqlState
    }

    /// The message, with the extended code (or SQLSTATE) when it says more than the primary one.
    public var description: String {
        if let sqlState { return "\(message) (SQLSTATE \(sqlState))" }
        return extendedResultCode == resultCode ? message : "\(message) (SQLite code \(extendedResultCode))"
    }
}
