import Foundation

/// A schema of its own on the test PostgreSQL server, made and dropped with `psql` (the real client).
///
/// The server is `PHOTOSYNC_TEST_POSTGRES_URL`, which `make test` sets after starting a throwaway
/// server (Tests/postgres/cluster.sh); a developer may point it at a server of their own. A missing
/// server fails the test that needs it: nothing is skipped.
public final class PostgresTestCatalog: Sendable {
    public let serverURL: String
    public let schema: String
    /// A catalog URL whose tables live in the schema (`--db` for photosync).
    public let url: String

    /// A schema in the test server's database, or (with `database`) in that database of the test
    /// server, created if missing.
    public init(database: String? = nil) throws {
        guard var server = ProcessInfo.processInfo.environment["PHOTOSYNC_TEST_POSTGRES_URL"], !server.isEmpty else {
            throw PostgresTestError(
                "PHOTOSYNC_TEST_POSTGRES_URL is not set: run `make test` (it starts a PostgreSQL server) or point it at a server of yours")
        }
        if let database, var components = URLComponents(string: server) {
            if try Self.psql(server, "SELECT count(*) FROM pg_database WHERE datname = '\(database)'") == "0" {
                _ = try? Self.psql(server, "CREATE DATABASE \(database)")  // another test may create it meanwhile
            }
            components.path = "/" + database
            server = components.string ?? server
        }
        serverURL = server
        schema = "ps_" + UUID().uuidString.replacing("-", with: "").lowercased()
        url = server + (server.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
        try Self.psql(server, "CREATE SCHEMA \(schema)")
    }

    deinit { _ = try? Self.psql(serverURL, "DROP SCHEMA \(schema) CASCADE") }

    /// libpq's environment for the schema (`PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGOPTIONS`):
    /// what a user's shell would hold for `postgresql:///DATABASE` to reach it.
    public var libpqEnvironment: [String: String] {
        guard let components = URLComponents(string: serverURL) else { return [:] }
        return ["PGHOST": components.host ?? "", "PGPORT": components.port.map(String.init) ?? "5432",
                "PGUSER": components.user ?? "", "PGPASSWORD": components.password ?? "", "PGOPTIONS": "-csearch_path=\(schema)"]
    }

    /// Runs `sql` with psql on `url` and returns what it printed (unaligned, tuples only).
    @discardableResult
    public static func psql(_ url: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [url, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PostgresTestError("psql failed: \(text)") }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// ``psql(_:_:)`` on a thread of its own, for async tests: blocking Swift's cooperative pool
    /// (two threads here) would starve the in-process servers of other tests.
    public static func query(_ url: String, _ sql: String) async throws -> String {
        try await runOnDedicatedThread { Result { try psql(url, sql) } }.get()
    }

    /// Runs `sql` on the catalog's schema.
    @discardableResult
    public func psql(_ sql: String) throws -> String { try Self.psql(url, sql) }
}

public struct PostgresTestError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
