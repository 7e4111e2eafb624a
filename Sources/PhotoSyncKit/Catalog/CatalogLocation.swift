import GraphStore

/// Where a catalog lives: a SQLite file (the default), or a PostgreSQL database that many hosts
/// share, named by a `postgres://` or `postgresql://` URL.
enum CatalogLocation: Equatable {
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

    /// The path, or the URL without its password: what messages and `status` show.
    var display: String {
        switch self {
        case .file(let path): path
        case .postgres(let url): Self.redacted(url)
        }
    }

    /// The URL's password (registered as a secret, so no output ever shows it).
    var password: String? {
        guard case .postgres(let url) = self, let scheme = url.firstRange(of: "://") else { return nil }
        let authority = url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return nil }
        let password = String(authority[authority.index(after: colon)..<at])
        return password.isEmpty ? nil : password
    }

    private static func redacted(_ url: String) -> String {
        guard let password = CatalogLocation.postgres(url: url).password else { return url }
        return url.replacing(":" + password + "@", with: ":***@", maxReplacements: 1)
    }
}
