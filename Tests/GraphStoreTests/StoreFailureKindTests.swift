@testable import GraphStore
import GRDB
import PhotoSyncTestSupport
import Testing

/// Each engine's codes as the kinds a caller switches on: the same kind for the same failure on
/// either store, the engine's own code kept beside it.
@Suite(.onTestThreads) struct StoreFailureKindTests {
    static let sqlite: [(ResultCode, StoreFailure.Kind)] = [
        (.SQLITE_FULL, .diskFull), (.SQLITE_IOERR, .ioError), (.SQLITE_IOERR_WRITE, .ioError), (.SQLITE_CANTOPEN, .cannotOpen),
        (.SQLITE_READONLY, .readOnly), (.SQLITE_NOTADB, .notADatabase), (.SQLITE_CORRUPT, .corrupt), (.SQLITE_NOMEM, .outOfMemory),
        (.SQLITE_CONSTRAINT_UNIQUE, .uniqueViolation), (.SQLITE_CONSTRAINT_PRIMARYKEY, .uniqueViolation),
        (.SQLITE_CONSTRAINT_FOREIGNKEY, .foreignKeyViolation), (.SQLITE_CONSTRAINT_NOTNULL, .constraintViolation),
        (.SQLITE_BUSY, .busy), (.SQLITE_LOCKED, .busy), (.SQLITE_INTERRUPT, .interrupted), (.SQLITE_PERM, .permissionDenied),
        (.SQLITE_ERROR, .other),
    ]

    static let postgres: [(String?, String, StoreFailure.Kind)] = [
        ("23505", "", .uniqueViolation), ("23503", "", .foreignKeyViolation), ("23502", "", .constraintViolation),
        ("40001", "", .serializationFailure), ("40P01", "", .serializationFailure), ("53100", "", .diskFull),
        ("53200", "", .serverResourcesExhausted), ("55P03", "", .busy), ("57014", "", .timeout), ("25006", "", .readOnly),
        ("28P01", "", .authenticationFailed), ("42501", "", .permissionDenied), ("XX001", "", .corrupt), ("58030", "", .ioError),
        ("57P01", "", .connectionLost), ("08006", "", .connectionLost), ("42P01", "", .other),
        (nil, "connection to server at \"127.0.0.1\", port 1 failed: Connection refused", .connectionLost),
        (nil, "FATAL:  password authentication failed for user \"u\"", .authenticationFailed),
        (nil, "out of memory", .outOfMemory),
    ]

    @Test(arguments: sqlite)
    func sqliteCodes(_ code: ResultCode, _ kind: StoreFailure.Kind) {
        let failure = StoreFailure(DatabaseError(resultCode: code, message: "m"))
        #expect(failure.kind == kind)
        #expect(failure.extendedResultCode == code.rawValue)
    }

    @Test(arguments: postgres)
    func postgresStates(_ state: String?, _ message: String, _ kind: StoreFailure.Kind) {
        let error = PostgresError(sqlState: state, message: message)
        #expect(error.kind == kind)
        #expect(error.failure.sqlState == state)
    }
}
