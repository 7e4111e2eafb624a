import Foundation

extension StoreLocation {
    /// The location as a message may show it: a PostgreSQL connection string with every secret it
    /// can carry replaced by `***` (the password of a URL's user information, and `password` and
    /// `sslpassword` as URL parameters or `key=value` pairs). `sslkey` and `sslcert` are paths,
    /// not secrets, and stay.
    public var redactedDescription: String {
        switch self {
        case .file(let path): path
        case .inMemory: ":memory:"
        case .postgres(let conninfo): PostgresSQL.redacted(conninfo)
        }
    }

    /// The secrets written in the location, as written and percent-decoded: for an app that keeps
    /// them out of its own output and logs.
    public var secrets: [String] {
        guard case .postgres(let conninfo) = self else { return [] }
        let written = PostgresSQL.passwords(conninfo)
        return written + written.compactMap { $0.removingPercentEncoding }.filter { !written.contains($0) }
    }
}
