import Foundation
import GRDB
import Glibc
import PhotoSyncTestSupport
import Testing

/// Catalog files photosync must refuse or treat carefully, and config errors: one stderr line,
/// the documented status, and the file byte for byte as it was.
@Suite("catalog files and config errors", .onTestThreads)
struct CatalogFileTests {
    /// A real catalog of 4 pages × 500, closed (no WAL left).
    static func realCatalog(_ sandbox: Sandbox) async throws {
        let feed = try await GeneratedFeed.start(photos: 2_000, perPage: 500)
        defer { feed.stop() }
        let fetch = try await sandbox("fetch", "--url", feed.url, "--api-key", "k", "--per-page", "500", "--pages", "4", "--quiet")
        #expect(fetch.status == 0, "\(fetch)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.db + "-wal"), "closed cleanly")
    }

    /// Hand-edits the `graphstore_metadata` schema row's JSON `version`; returns the rows changed.
    static func setStoredModelVersion(_ version: Int, in path: String) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.inDatabase { db in
            try db.execute(sql: "UPDATE graphstore_metadata SET value = json_set(value, '$.version', ?) WHERE key = 'schema'",
                           arguments: [version])
            return db.changesCount
        }
    }

    @Test func truncatedCatalogIsRefusedAndLeftAlone() async throws {
        try await withSandbox { sandbox in
            let closed = try closedLoopbackURL()
            try await Self.realCatalog(sandbox)
            let full = try #require(sandbox.fileBytes())
            let truncated = full.prefix(full.count / 2)
            try truncated.write(to: URL(fileURLWithPath: sandbox.db))
            for command in [["list"], ["photographers"], ["status"], ["fetch", "--url", closed, "--api-key", "k", "--retries", "0"]] {
                let result = try await sandbox.run(command + ["--db", sandbox.db])
                #expect(result.status == 74, "\(command): \(result)")
                #expect(result.stderrLines.count == 1, "\(command): \(result)")
                #expect(sandbox.fileBytes() == truncated, "\(command) left the file as it was")
            }
        }
    }

    @Test func readOnlyCatalogRefusesFetchAndIsLeftAlone() async throws {
        try await withSandbox { sandbox in
            let closed = try closedLoopbackURL()
            try await Self.realCatalog(sandbox)
            let before = try #require(sandbox.fileBytes())
            // Root ignores file modes, so run as nobody when we are root.
            var prefix: [String] = []
            if getuid() == 0 {
                prefix = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
                for path in [sandbox.directory, sandbox.directory + "/home", sandbox.directory + "/data", sandbox.directory + "/config", sandbox.db, sandbox.db + ".lock"] {
                    chown(path, 65534, 65534)
                }
            }
            chmod(sandbox.db, 0o400)
            let fetch = try await sandbox.run(["fetch", "--db", sandbox.db, "--url", closed, "--api-key", "k", "--retries", "0"], prefix: prefix)
            #expect(fetch.status == 74, "\(fetch)")
            #expect(fetch.stderrLines.count == 1, "\(fetch)")
            #expect(sandbox.fileBytes() == before)
            // Reading needs no write access: queries open a current catalog read-only.
            for command in [["list", "--format", "json"], ["photographers"], ["status"]] {
                let read = try await sandbox.run(command + ["--db", sandbox.db], prefix: prefix)
                #expect(read.status == 0, "\(command): \(read)")
            }
            #expect(sandbox.fileBytes() == before)
        }
    }

    @Test func catalogFromANewerModelIsRefusedByteForByte() async throws {
        try await withSandbox { sandbox in
            let closed = try closedLoopbackURL()
            try await Self.realCatalog(sandbox)
            #expect(try Self.setStoredModelVersion(99, in: sandbox.db) == 1)
            let before = try #require(sandbox.fileBytes())
            for command in [["list"], ["status"], ["delete", "1"], ["fetch", "--url", closed, "--api-key", "k", "--retries", "0"]] {
                let result = try await sandbox.run(command + ["--db", sandbox.db])
                #expect(result.status == 74, "\(command): \(result)")
                #expect(result.stderrLines.count == 1, "\(command): \(result)")
                #expect(result.stderr.contains("newer"), "\(command): says why: \(result)")
                #expect(sandbox.fileBytes() == before, "\(command) left the file byte for byte")
            }
        }
    }

    @Test(arguments: [
        ("endpoint: CLOSED\napi_key: k\nper_pgae: 5\n", "per_pgae"),
        ("endpoint: CLOSED\napi_key: k\nper_page: lots\n", "per_page"),
        ("endpoint: CLOSED\napi_key: k\nretries: [1, 2]\n", "retries"),
    ])
    func badConfigExits78NamingKeyAndFile(yaml: String, key: String) async throws {
        try await withSandbox { sandbox in
            let config = sandbox.directory + "/bad-config.yaml"
            try yaml.replacingOccurrences(of: "CLOSED", with: try closedLoopbackURL()).write(toFile: config, atomically: true, encoding: .utf8)
            chmod(config, 0o600)
            _ = try await sandbox("status")
            let before = sandbox.fileBytes()
            for command in [["fetch"], ["list"]] {
                let result = try await sandbox.run(command + ["--db", sandbox.db, "--config", config])
                #expect(result.status == 78, "\(command): \(result)")
                #expect(result.stderrLines.count == 1, "\(command): \(result)")
                #expect(result.stderr.contains(key) && result.stderr.contains("bad-config.yaml"), "\(result)")
                #expect(sandbox.fileBytes() == before)
            }
        }
    }
}
