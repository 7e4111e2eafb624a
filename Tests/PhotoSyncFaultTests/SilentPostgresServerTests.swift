import Foundation
import PhotoSyncTestSupport
import Testing

/// A PostgreSQL port that accepts and never answers (issue 21): `status` and `list` hung with no
/// limit. Every connection now has a connect timeout, 10 s unless the URL's `connect_timeout`
/// says otherwise; the command then exits 74 with libpq's reason.
@Suite("a PostgreSQL server that never answers", .onTestThreads)
struct SilentPostgresServerTests {
    static func expectTimedOut(_ outcome: (result: Sandbox.Result, hung: Bool), _ what: String) {
        #expect(!outcome.hung, "\(what) still waited after 60 s")
        #expect(outcome.result.status == 74, "\(what): \(outcome.result)")
        #expect(outcome.result.stderrLines.count == 1 && outcome.result.stderr.contains("timeout expired"), "\(what): \(outcome.result)")
    }

    @Test func readsAndFetchesEndAtTheConnectTimeout() async throws {
        let server = try RawSocketServer(.neverRespond)
        defer { server.stop() }
        try await withSandbox { sandbox in
            let url = "postgresql://someone@127.0.0.1:\(server.port)/photos"
            for command in [["status"], ["list"], ["fetch", "--url", "http://127.0.0.1:9/rest", "--api-key", "k", "--max-time", "5"]] {
                Self.expectTimedOut(try await sandbox.runLimited("", command + ["--db", url], within: 60), "\(command[0]), default timeout")
            }
            Self.expectTimedOut(try await sandbox.runLimited("", ["list", "--db", url + "?connect_timeout=1"], within: 60), "the URL's connect_timeout")
        }
    }
}
