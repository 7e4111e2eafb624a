/// PostgreSQL's SQLSTATE as a ``StoreFailure/Kind``
/// (<https://www.postgresql.org/docs/current/errcodes-appendix.html>).
extension PostgresError {
    var kind: StoreFailure.Kind {
        guard let sqlState else { return connectionKind }
        switch sqlState {
        case "23505": return .uniqueViolation
        case "23503": return .foreignKeyViolation
        case "40001", "40P01": return .serializationFailure
        case "53100": return .diskFull
        case "55P03", "55006": return .busy
        case "57014": return .timeout
        case "25006": return .readOnly
        case "28000", "28P01": return .authenticationFailed
        case "42501": return .permissionDenied
        case "58030": return .ioError
        case "XX001", "XX002": return .corrupt
        case "57P01", "57P02", "57P03": return .connectionLost
        default: break
        }
        return switch sqlState.prefix(2) {
        case "23": .constraintViolation
        case "08": .connectionLost
        case "53": .serverResourcesExhausted
        default: .other
        }
    }

    /// A failure with no SQLSTATE is libpq's own: the connection could not be made (or was lost),
    /// the credentials were refused, or libpq could not allocate memory. libpq says which only in
    /// words, so this one place reads them.
    private var connectionKind: StoreFailure.Kind {
        if message.contains("out of memory") { return .outOfMemory }
        if message.contains("authentication failed") { return .authenticationFailed }
        return .connectionLost
    }

    /// The store at `location` (as messages name it) is unavailable for this error.
    func unavailable(_ location: String, conninfo: String) -> GraphStoreError {
        .storeUnavailable(path: location, reason: PostgresSQL.connectionMessage(message, conninfo: conninfo), kind: kind)
    }
}
