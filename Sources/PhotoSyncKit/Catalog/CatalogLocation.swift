import Foundation
import GraphStore

/// Where a catalog lives: a SQLite file (the default), or a PostgreSQL database that many hosts
/// share, named by a `postgres://` or `postgresql://` URL. GraphStore parses which
/// (``StoreLocation/init(parsing:)``); photosync asks only whether there is a local file.
struct CatalogLocation: Equatable, Sendable {
    let storeLocation: StoreLocation

    /// `--db`'s value (or `PHOTOSYNC_DB`'s, or the config file's `db`).
    init(_ text: String) { storeLocation = StoreLocation(parsing: text) }

    /// The catalog file at `path`.
    static func file(_ path: String) -> CatalogLocation { CatalogLocation(storeLocation: .file(path)) }

    private init(storeLocation: StoreLocation) { self.storeLocation = storeLocation }

    /// The catalog's file, for an embedded catalog; nil for a shared one.
    var filePath: String? { storeLocation.filePath }

    /// The folder holding the catalog's file (where `files/` goes by default), nil for a shared one.
    var folder: String? { filePath.map { ($0 as NSString).deletingLastPathComponent } }

    /// Creates the folder of a catalog's file (mode 0700) before a command may create the file.
    func createFolder() throws(PhotoSyncError) {
        if let folder { try PrivateFolder.create(folder) }
    }

    /// The path, or the URL without its secrets: what messages, `status` and `config` show.
    var display: String { storeLocation.redactedDescription }

    /// The secrets a PostgreSQL URL carries (registered with ``Secrets``, so no output, log line
    /// or stored error ever shows them).
    var secrets: [String] { storeLocation.secrets }
}
