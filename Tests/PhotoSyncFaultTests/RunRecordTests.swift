import Foundation
import Glibc
import PhotoSyncTestSupport
import Testing

/// A fetch's run record is written by each page's save, in its transaction (issue 24: it was a
/// read and a write of their own per page): whatever stops the run, the record holds exactly the
/// pages saved.
@Suite("a fetch's run record, page by page", .onTestThreads)
struct RunRecordTests {
    /// SIGKILL while page 2 is in flight (nothing runs after it): the record of the killed run
    /// holds page 1's counts, those of the photos stored, and the API call made for it.
    @Test(arguments: [false, true])
    func aKilledFetchLeavesTheRecordOfThePagesItSaved(postgres: Bool) async throws {
        try await withSandbox(postgres: postgres) { sandbox in
            let server = try slowSecondPageServer(page2Delay: 30)
            defer { server.stop() }
            let running = try sandbox.start(["fetch", "--db", sandbox.db, "--url", server.url, "--api-key", "k", "--per-page", "2"])
            var status: [String: Any] = [:]
            let saved = try await eventually(within: 30) {
                let result = try await sandbox("status", "--format", "json")
                guard result.status == 0 else { return false }
                status = try result.object()
                return status["photos"] as? Int == 2
            }
            #expect(saved, "page 1 was never saved: \(status)")
            #expect(running.process.isRunning, "the fetch must still be waiting for page 2")
            running.signal(SIGKILL)
            _ = await running.finish()
            let runs = try await sandbox("status", "--format", "json").object()["runs"] as? [[String: Any]] ?? []
            let run = try #require(runs.first, "no run recorded")
            #expect(run["pages"] as? Int == 1 && run["received"] as? Int == 2 && run["inserted"] as? Int == 2, "\(runs)")
            #expect(run["photographers_inserted"] as? Int == 2, "\(runs)")
            #expect((1...2).contains(try await sandbox("status", "--format", "json").object()["api_calls_last_hour"] as? Int ?? 0))
        }
    }
}
