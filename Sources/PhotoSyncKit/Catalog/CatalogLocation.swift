import GraphStore

/// Where a catalog lives: a SQLite file (the default), or a PostgreSQL database that many hosts
/// share, named by a `postgres://` or `postgresql://` URL.
enum CatalogLocation: Equatable, Sendable {
    case file(String)
    case postgres(url: String)

    /// `--db`'s value (or `PHOTOSYNC_DB`'s, or the config file's `db`).
    init(_ text: String) {
        let lowered = text.lowercased()
        self = lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") ? .postgres(url: text) : .file(text)
    }

    var isPostgres: Bool { if case .postgres = self { true } else { false } }

    var storeLocation: StoreLocation {
        switch self {
        case .file(let path): .file(path)
        case .postgres(let url): .postgres(url)
        }
    }

    /// The path, or the URL without its secrets: what messages, `status` and `config` show.
    var display: String { storeLocation.redactedDescription }

    /// The secrets a PostgreSQL URL carries (registered with ``Secrets``, so no output, log line
    /// or stored error ever shows them).
    var secrets: [String] { storeLocation.secrets }
}
