import Foundation
import PhotoSyncTestSupport
import Testing

/// Searches past Flickr's 4,000-result cap, split by upload time (issue 25, part 2).
@Suite("search windows", .onTestThreads)
struct SearchWindowTests {
    static let yearStart = 1_700_000_000

    /// 12,000 photos over a year: 9,000 evenly spread, and a burst of 3,000 in one day.
    static let year: [Int] = (0..<9_000).map { yearStart + $0 * 3_504 } + (0..<3_000).map { yearStart + 200 * 86_400 + $0 * 28 }

    static func search(_ photosync: PhotoSync, _ server: TestHTTPServer, pages: Int) async throws -> PhotoSync.Result {
        try await photosync.run(["fetch", "--search", "--tags", "dunes", "--url", server.feedURL, "--api-key", "k", "--per-page", "500",
                                 "--pages", "\(pages)", "--format", "json", "--db", photosync.db])
    }

    static func storedIDs(_ photosync: PhotoSync) async throws -> Set<String> {
        Set(try jsonArray(try await photosync("list", "--format", "json")).compactMap { $0["id"] as? String })
    }

    @Test(arguments: CatalogKind.allCases) func aSearchOverTheCapIsWalkedWindowByWindowAcrossRuns(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let search = SimulatedSearch(uploads: Self.year)
            search.serve(on: server)
            let first = try await Self.search(photosync, server, pages: 30)
            #expect(first.status == 0, "\(first)")
            #expect(try jsonObject(first)["windows_over_cap"] as? Int == 0)
            #expect(server.requests(to: Feed.path).count == 30, "the page limit bounds every request, probes included")
            let cut = try await Self.storedIDs(photosync)
            #expect(cut.count > 4_000 && cut.count < 12_000, "\(cut.count)")
            try await expectInvariants(photosync)

            let finished = search.finishedWindows
            let before = server.requests(to: Feed.path).count
            let second = try await Self.search(photosync, server, pages: 200)
            #expect(second.status == 0, "\(second)")
            #expect(!finished.isEmpty)
            let walkedAgain = server.requests(to: Feed.path).dropFirst(before).compactMap(SimulatedSearch.window).filter { window in
                finished.contains { $0.overlaps(window) }
            }
            #expect(walkedAgain.isEmpty, "completed windows walked again: \(walkedAgain)")
            #expect(try await Self.storedIDs(photosync) == search.ids, "every photo stored")
            #expect(try jsonObject(second)["repeated"] as? Int == 0)
            try await expectInvariants(photosync)

            let third = server.requests(to: Feed.path).count
            #expect(try await Self.search(photosync, server, pages: 200).status == 0)
            #expect(server.requests(to: Feed.path).count == third + 1, "complete: back to one call")
        }
    }

    /// 4,200 photos in one second: the window cannot be split; it is reported and the run stores
    /// what Flickr serves of it.
    @Test func aSecondStillOverTheCapIsReported() async throws {
        try await withSandbox { photosync, server in
            let uploads = Array(repeating: Self.yearStart + 86_400, count: 4_200) + (0..<100).map { Self.yearStart + $0 * 3_600 * 5 }
            SimulatedSearch(uploads: uploads).serve(on: server)
            let run = try await Self.search(photosync, server, pages: 200)
            #expect(run.status == 0, "\(run)")
            #expect(try jsonObject(run)["windows_over_cap"] as? Int == 1)
            #expect(run.stderr.contains("more than the 4000 Flickr serves"), "\(run.stderr)")
            #expect(try await Self.storedIDs(photosync).count == 4_100)
            try await expectInvariants(photosync)
        }
    }
}
