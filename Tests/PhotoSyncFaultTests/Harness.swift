import Foundation
import Glibc
import PhotoSyncTestSupport
import Testing

/// `PHOTOSYNC_SLOW_FAULTS=1` (set by `make test-faults`) turns on the slow tests; without it they
/// report as skipped, never as passed.
let slowFaults = ProcessInfo.processInfo.environment["PHOTOSYNC_SLOW_FAULTS"] == "1"
let slowOnly = Testing.ConditionTrait.enabled(if: slowFaults, "slow fault test: set PHOTOSYNC_SLOW_FAULTS=1 (make test-faults)")

/// The built binary in a private directory (see `BinarySandbox` in PhotoSyncTestSupport).
typealias Sandbox = BinarySandbox

extension BinarySandbox.Result {
    func object() throws -> [String: Any] {
        try #require(try json() as? [String: Any], "stdout is not a JSON object: \(self)")
    }

    func array() throws -> [[String: Any]] {
        try #require(try json() as? [[String: Any]], "stdout is not a JSON array: \(self)")
    }
}

extension BinarySandbox {
    /// The catalog's photo ids (via `list --format json`).
    func ids() async throws -> Set<String> {
        let list = try await self("list", "--format", "json")
        #expect(list.status == 0, "\(list)")
        return Set(try list.array().compactMap { $0["id"] as? String })
    }

    /// Creates the sandbox's catalog, empty, by fetching an empty page from a file (reading
    /// commands never create one).
    func createEmptyCatalog() async throws -> Result {
        let page = directory + "/empty-page.json"
        try #"{"photos":{"page":1,"pages":1,"perpage":1,"total":0,"photo":[]},"stat":"ok"}"#
            .write(toFile: page, atomically: true, encoding: .utf8)
        return try await self("fetch", "--url", "file://" + page, "--quiet")
    }
}

/// Runs `body` with a fresh sandbox (its catalog on the test PostgreSQL server with `postgres`),
/// made and removed off the cooperative pool (`psql`).
func withSandbox<T>(
    postgres: Bool = false, environment: [String: String] = [:], _ body: (Sandbox) async throws -> T
) async throws -> T {
    let sandbox = try await Sandbox.made(label: "photosync-faults", postgres: postgres, environment: environment)
    do {
        let result = try await body(sandbox)
        await sandbox.removed()
        return result
    } catch {
        await sandbox.removed()
        throw error
    }
}

/// Polls `condition` every 20 ms until it holds or `seconds` pass; returns whether it held.
func eventually(within seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
