import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

/// A photo's tag pairs are written by the page's own import save, from the tags the feed sent.
/// A catalog whose pairs lag `tagList` (an older photosync linked them in a second transaction, and
/// a run could die between the two) is repaired by the next fetch that meets the photo.
@Suite("Tag pairs follow the feed's tags", .removesTemporaryFiles, .onTestThreads)
struct MetadataFieldsTests {
    static let page = #"{"photos":{"page":1,"pages":1,"perpage":100,"total":2,"photo":["#
        + #"{"id":"1","owner":"1@N01","ownername":"Ana","title":"Harbour","dateupload":"1714000000","server":"1","secret":"a","tags":"sea harbour"},"#
        + #"{"id":"2","owner":"1@N01","ownername":"Ana","title":"Dusk","dateupload":"1713000000","server":"1","secret":"b","tags":"sea"}]},"stat":"ok"}"#

    static func fetch(_ catalog: Catalog, _ server: TestHTTPServer) async throws -> FetchSummary {
        var settings = FetchSettings(
            endpoint: server.url("/rest"), apiKey: "k", pages: nil, maxPages: 10, perPage: 100,
            mergePolicy: .objectTrump, timeout: 30, retries: 0, dryRun: false, waitForLock: false)
        settings.full = true
        return try await runOnDedicatedThread { [settings] in
            Result { try catalog.fetch(settings, interruption: InterruptionWatch(), progress: { _ in }) }
        }.get()
    }

    /// Photo id → its tags' names from the pairs, sorted.
    static func pairs(_ catalog: Catalog) throws -> [String: [String]] {
        let context = catalog.container.newContext()
        return Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest<Photo>()).map { ($0.unique, $0.tags.map(\.name).sorted()) })
    }

    @Test(arguments: ["sqlite", "postgres"])
    func pairsLaggingTheTagListAreRepairedByTheNextFetch(_ kind: String) async throws {
        let postgres = kind == "postgres" ? try await PostgresTestCatalog.made() : nil
        let path = try postgres?.url ?? makeTemporaryDirectory() + "/c.sqlite"
        try await TestHTTPServer.withRunning { server in
            server.route("/rest") { _ in .text(Self.page, headers: ["Content-Type": "application/json"]) }
            let catalog = try Catalog(path: path)
            let first = try await Self.fetch(catalog, server)
            #expect(first.inserted == 2)
            #expect(try Self.pairs(catalog) == ["1": ["harbour", "sea"], "2": ["sea"]], "linked in the page's save")

            // The pairs of photo 1 lost, its tagList kept: what a run killed between two transactions left.
            let context = catalog.container.newContext()
            let one = try #require(try context.fetch(FetchRequest<Photo>(predicate: \.$unique == "1")).first)
            one.tags = []
            try context.save()
            #expect(one.tagList == "harbour sea")

            let again = try await Self.fetch(catalog, server)
            #expect(try Self.pairs(catalog) == ["1": ["harbour", "sea"], "2": ["sea"]], "the next fetch links them again")
            #expect(again.updated == 1 && again.unchanged == 1, "only the photo whose pairs changed is an update")
        }
        await postgres?.dropped()
    }
}
