internal import GRDB

extension StoreFailure {
    init(_ error: DatabaseError) {
        self.init(kind: Kind(error.extendedResultCode), message: error.message ?? "\(error)",
                  resultCode: error.resultCode.rawValue, extendedResultCode: error.extendedResultCode.rawValue)
    }
}

extension StoreFailure.Kind {
    /// SQLite's result code as a kind (<https://www.sqlite.org/rescode.html>).
    init(_ code: ResultCode) {
        self = switch code {
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY: .uniqueViolation
        case .SQLITE_CONSTRAINT_FOREIGNKEY: .foreignKeyViolation
        case .SQLITE_CONSTRAINT: .constraintViolation
        case .SQLITE_FULL: .diskFull
        case .SQLITE_IOERR: .ioError
        case .SQLITE_CANTOPEN: .cannotOpen
        case .SQLITE_READONLY: .readOnly
        case .SQLITE_NOTADB: .notADatabase
        case .SQLITE_CORRUPT: .corrupt
        case .SQLITE_NOMEM: .outOfMemory
        case .SQLITE_BUSY, .SQLITE_LOCKED: .busy
        case .SQLITE_INTERRUPT: .interrupted
        case .SQLITE_PERM, .SQLITE_AUTH: .permissionDenied
        default: .other
        }
    }
}
