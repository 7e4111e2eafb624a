import Foundation
import Glibc
import PhotoSyncTestSupport
import Testing

/// SIGKILL at random moments during a 20-page × 500 fetch of a generated feed: after every kill the
/// catalog opens, passes `PRAGMA integrity_check`, holds whole pages only, and keeps its invariants;
/// a final fetch then completes it.
@Suite("crash safety: SIGKILL at random moments", .serialized)
struct CrashSafetyTests {
    static let photos = 10_000
    static let perPage = 500

    @Test func fiveKillRounds() async throws {
        try await killRounds(5)
    }

    @Test(slowOnly) func fiftyKillRounds() async throws {
        try await killRounds(50)
    }

    /// Each round: a fresh catalog; kill a fetch at a random moment; check; kill a second fetch over
    /// the partial catalog (inserts mixed with unchanged pages); check; complete it; check.
    func killRounds(_ rounds: Int) async throws {
        let feed = try await GeneratedFeed.start(photos: Self.photos, perPage: Self.perPage)
        defer { feed.stop() }
        let pages = try await feed.pageIDs()
        #expect(pages.count == 20 && pages.allSatisfy { $0.count == Self.perPage })
        let fetchArgs = ["fetch", "--url", feed.url, "--api-key", "k", "--per-page", "\(Self.perPage)", "--pages", "\(pages.count)", "--quiet"]

        // How long a whole fetch takes here sets the window the kills are drawn from.
        // (The shorter of two runs: the first one also warms up caches.)
        var window = Double.infinity
        for _ in 1...2 {
            window = min(window, try await withSandbox { sandbox in
                let started = ContinuousClock.now
                let full = try await sandbox.run(fetchArgs + ["--db", sandbox.db])
                #expect(full.status == 0, "\(full)")
                return (ContinuousClock.now - started) / .milliseconds(1)
            })
        }

        var survived = 0
        var presentAfterKill: [Int] = []
        var killedMidFetch = 0
        var generator = SystemRandomNumberGenerator()
        for round in 1...rounds {
            let passed = try await withSandbox { sandbox -> Bool in
                var ok = true
                for attempt in 1...2 {
                    let running = try sandbox.start(fetchArgs + ["--db", sandbox.db])
                    let delay = Int.random(in: 0...Int(window), using: &generator)
                    try await Task.sleep(for: .milliseconds(delay))
                    running.signal(SIGKILL)
                    let result = await running.finish()
                    let label = "round \(round).\(attempt) (kill after \(delay) ms)"
                    #expect(result.signalled ? result.status == SIGKILL : result.status == 0, "\(label): \(result)")

                    let status = try await sandbox("status", "--format", "json")
                    // Killed before it created the catalog: there is none to open (status says so, 66).
                    if result.signalled, status.status == 66, !FileManager.default.fileExists(atPath: sandbox.db) {
                        presentAfterKill.append(0)
                        continue
                    }
                    #expect(status.status == 0, "\(label): the catalog opens after the kill: \(status)")
                    guard status.status == 0 else { return false }
                    let present = try CatalogInspector(path: sandbox.db).expectConsistent(pages: pages, label)
                    if result.signalled { killedMidFetch += 1 }
                    presentAfterKill.append(present)
                    let integrity = try CatalogInspector(path: sandbox.db).snapshot().integrity
                    ok = ok && integrity == ["ok"]
                }
                let final = try await sandbox.run(fetchArgs + ["--db", sandbox.db])
                #expect(final.status == 0, "round \(round): the final fetch completes: \(final)")
                let complete = try await sandbox("status", "--format", "json").object()
                #expect(complete["photos"] as? Int == Self.photos, "round \(round): count == total")
                let present = try CatalogInspector(path: sandbox.db).expectConsistent(pages: pages, "round \(round) final")
                #expect(present == pages.count)
                let runs = complete["runs"] as? [[String: Any]] ?? []
                #expect(runs.first?["outcome"] as? String == "succeeded", "round \(round): \(runs)")
                return ok && final.status == 0 && complete["photos"] as? Int == Self.photos && present == pages.count
            }
            if passed { survived += 1 }
        }
        print("photosync crash safety: \(survived)/\(rounds) kill rounds survived; \(killedMidFetch) of \(2 * rounds) SIGKILLs landed mid-fetch (window \(Int(window)) ms); pages present after each kill: \(presentAfterKill)")
        #expect(survived == rounds)
    }
}
