/// Where a store lives.
public enum StoreLocation: Sendable, Equatable {
    case file(String)
    /// A private in-memory database: same schema, constraints and foreign keys as a file.
    case inMemory
    /// A PostgreSQL database shared by many processes: a `postgres://` or `postgresql://` URL, or
    /// libpq's `key=value` pairs, completed by libpq's environment (`PGHOST`, `PGUSER`,
    /// `PGPASSWORD`, `PGSSLMODE`, ...) and `~/.pgpass`. The model's tables live in the connection's
    /// current schema (`options=-csearch_path=NAME` picks another).
    case postgres(String)

    /// The location a user wrote: a `postgres://` or `postgresql://` URL (any case) names a
    /// PostgreSQL database; anything else is a file path. So an app takes either in one setting
    /// and never parses it itself.
    public init(parsing text: String) {
        let lowered = text.lowercased()
        self = lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") ? .postgres(text) : .file(text)
    }

    /// The file holding the store when it is embedded; nil for a server or memory. Where an app
    /// keeps things beside the store (its folder, its permissions), it asks this, never the backend.
    public var filePath: String? {
        if case .file(let path) = self { path } else { nil }
    }
}
