import Foundation
@testable import GraphStore

/// A schema of its own on the test server, dropped with the last store that uses it.
///
/// The server is `PHOTOSYNC_TEST_POSTGRES_URL`, which `make test` sets after starting a throwaway
/// PostgreSQL (Tests/postgres/cluster.sh); a developer may point it at a server of their own. A
/// missing server fails the test: nothing is skipped.
final class PostgresTestSchema: Sendable {
    let serverURL: String
    let name: String
    /// The store's location: the server, with the schema first on the search path.
    let url: String

    init() throws {
        let server = try Self.serverURL()
        serverURL = server
        name = "gs_" + UUID().uuidString.replacing("-", with: "").lowercased()
        try PostgresConnection(conninfo: server).execute("CREATE SCHEMA \(name)")
        url = server + (server.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(name)"
    }

    /// The test server's URL (`PHOTOSYNC_TEST_POSTGRES_URL`).
    static func serverURL() throws -> String {
        guard let server = ProcessInfo.processInfo.environment["PHOTOSYNC_TEST_POSTGRES_URL"], !server.isEmpty else {
            throw TestSetupError(
                "PHOTOSYNC_TEST_POSTGRES_URL is not set: run `make test` (it starts a PostgreSQL server) or point it at a server of yours")
        }
        return server
    }

    deinit { _ = try? PostgresConnection(conninfo: serverURL).execute("DROP SCHEMA \(name) CASCADE") }

    /// Runs SQL on the schema outside GraphStore (to alter a store by hand, say).
    func execute(_ sql: String) throws {
        try PostgresConnection(conninfo: url).execute(sql)
    }
}

struct TestSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
