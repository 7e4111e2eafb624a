import Foundation
import Synchronization

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
    /// With `database`: that database and the server's own URL, to drop it after its last user.
    private let database: (name: String, server: String)?
    /// Catalogs alive per database made for them (tests share one: the README names `photos`).
    private static let databaseUsers = Mutex<[String: Int]>([:])
    private let dropped = Mutex(false)

    /// A schema in the test server's database, or (with `database`) in that database of the test
    /// server, created if missing.
    public init(database: String? = nil) throws {
        guard var server = ProcessInfo.processInfo.environment["PHOTOSYNC_TEST_POSTGRES_URL"], !server.isEmpty else {
            throw PostgresTestError(
                "PHOTOSYNC_TEST_POSTGRES_URL is not set: run `make test` (it starts a PostgreSQL server) or point it at a server of yours")
        }
        self.database = database.map { ($0, server) }
        if let database, var components = URLComponents(string: server) {
            // Counted and made under the lock its last user drops it under: a test starting as
            // another ends never meets a database about to go.
            try Self.databaseUsers.withLock { users in
                users[database, default: 0] += 1
                if try Self.psql(server, "SELECT count(*) FROM pg_database WHERE datname = '\(database)'") == "0" {
                    try Self.psql(server, "CREATE DATABASE \(database)")
                }
            }
            components.path = "/" + database
            server = components.string ?? server
        }
        serverURL = server
        schema = "ps_" + UUID().uuidString.replacing("-", with: "").lowercased()
        url = server + (server.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
        try Self.psql(server, "CREATE SCHEMA \(schema)")
    }

    deinit { drop() }

    /// A catalog made on a thread of its own, for async tests (`psql` blocks; see `query`).
    public static func made(database: String? = nil) async throws -> PostgresTestCatalog {
        try await runOnDedicatedThread { Result { try PostgresTestCatalog(database: database) } }.get()
    }

    /// `drop()` on a thread of its own.
    public func dropped() async {
        await runOnDedicatedThread { self.drop() }
    }

    /// Drops the schema, and the database made for `database` when no other catalog uses it; once.
    public func drop() {
        guard dropped.withLock({ done in defer { done = true }; return !done }) else { return }
        _ = try? Self.psql(serverURL, "DROP SCHEMA \(schema) CASCADE")
        guard let database else { return }
        Self.databaseUsers.withLock { users in
            users[database.name, default: 1] -= 1
            if users[database.name] == 0 { _ = try? Self.psql(database.server, "DROP DATABASE IF EXISTS \(database.name)") }
        }
    }

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
        try process.runOneAtATime()
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

    /// Every row of every table of the catalog's schema, as `pg_dump --data-only` prints them.
    public func dataDump() throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pg_dump")
        process.arguments = ["--data-only", "--schema=\(schema)", "--dbname=\(serverURL)"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.runOneAtATime()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PostgresTestError("pg_dump failed: \(problem)") }
        return text
    }

    /// Runs `sql` on the catalog's schema.
    @discardableResult
    public func psql(_ sql: String) throws -> String { try Self.psql(url, sql) }
}

public struct PostgresTestError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
