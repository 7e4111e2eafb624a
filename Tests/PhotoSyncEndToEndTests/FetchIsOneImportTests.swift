import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 11's three breakages, through the binary: a fetch is one import across its pages.
@Suite("a fetch is one import", .onTestThreads)
struct FetchIsOneImportTests {
    /// Two pages: a photographer on both, and photo 1 shifted from page 1 to page 2.
    static let shifting = [
        1: Feed.page(1, of: 2, perPage: 2, total: 4, [FeedItem("1", by: "Anna", title: "one"), FeedItem("2", by: "Bo", title: "two")]),
        2: Feed.page(2, of: 2, perPage: 2, total: 4, [FeedItem("3", by: "Anna", title: "three"), FeedItem("1", by: "Anna", title: "one")]),
    ]

    static func fetch(_ photosync: PhotoSync, _ server: TestHTTPServer, _ extra: String...) async throws -> PhotoSync.Result {
        try await photosync.run(["fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "2", "--format", "json"] + extra
                                + ["--db", photosync.db], environment: [:])
    }

    @Test(arguments: CatalogKind.allCases) func storeTrumpLeavesNoPhotographerWithoutPhotos(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed([1: Feed.page(1, of: 1, perPage: 2, total: 1, [FeedItem("1", by: "Old", title: "one")])])
            #expect(try await Self.fetch(photosync, server).status == 0)
            server.serveFeed([1: Feed.page(1, of: 1, perPage: 2, total: 1, [FeedItem("1", by: "New", title: "one")])])
            let fetch = try await Self.fetch(photosync, server, "--merge-policy", "store-trump")
            #expect(fetch.status == 0, "\(fetch)")
            #expect(try jsonObject(fetch)["photographers_inserted"] as? Int == 0)
            let names = try jsonArray(try await photosync("photographers", "--format", "json")).map { $0["name"] as? String }
            #expect(names == ["Old"])
            try await expectInvariants(photosync)
        }
    }

    @Test(arguments: CatalogKind.allCases) func errorPolicyAcceptsWhatTheSameFetchStoredOnEarlierPages(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Self.shifting)
            let fetch = try await Self.fetch(photosync, server, "--merge-policy", "error")
            #expect(fetch.status == 0, "\(fetch)")
            let summary = try jsonObject(fetch)
            #expect(summary["inserted"] as? Int == 3)
            #expect(summary["repeated"] as? Int == 1)
            #expect(summary["skipped"] as? Int == 0)
            #expect(summary["photographers_inserted"] as? Int == 2)
            try await expectInvariants(photosync)
        }
    }

    @Test(arguments: CatalogKind.allCases) func errorPolicyStillRefusesWhatTheCatalogHeldBefore(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed([1: Feed.page(1, of: 1, perPage: 2, total: 1, [FeedItem("2", by: "Bo", title: "two")])])
            #expect(try await Self.fetch(photosync, server).status == 0)
            server.serveFeed(Self.shifting)
            let dry = try await Self.fetch(photosync, server, "--merge-policy", "error", "--dry-run")
            let real = try await Self.fetch(photosync, server, "--merge-policy", "error")
            #expect(real.status == 65, "\(real)")
            #expect(dry.status == real.status, "\(dry)")
            try await expectInvariants(photosync)
        }
    }

    /// The dry run first, on an empty catalog, then the same fetch for real: same counts, same status.
    @Test(arguments: ["object-trump", "store-trump", "error"])
    func aDryRunReportsExactlyWhatTheRealRunDoes(_ policy: String) async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Self.shifting)
            let dry = try await Self.fetch(photosync, server, "--merge-policy", policy, "--dry-run")
            #expect(try await photosync("list", "--format", "json").status == 66, "the dry run created no catalog")
            #expect(!FileManager.default.fileExists(atPath: photosync.db))
            let real = try await Self.fetch(photosync, server, "--merge-policy", policy)
            #expect(dry.status == 0 && real.status == 0, "\(dry)\n\(real)")
            var counts = try jsonObject(dry)
            let wouldChange = try #require(counts.removeValue(forKey: "changes") as? [[String: Any]], "\(dry)")
            #expect(counts.removeValue(forKey: "changes_total") as? Int == wouldChange.count)
            #expect(NSDictionary(dictionary: counts) == NSDictionary(dictionary: try jsonObject(real)))
            // What the dry run said it would change is what the real run recorded.
            let recorded = try #require(try jsonObject(try await photosync("changes", "--format", "json"))["changes"] as? [[String: Any]])
            #expect(Set(wouldChange.map { "\($0["entity"]!) \($0["id"]!) \($0["kind"]!)" }) == Set(recorded.map { "\($0["entity"]!) \($0["id"]!) \($0["kind"]!)" }))
            #expect(try jsonObject(real)["inserted"] as? Int == 3)
            #expect(try jsonObject(real)["photographers_inserted"] as? Int == 2)
            try await expectInvariants(photosync)
        }
    }
}

/// The catalog's rules, read back through the binary: every photographer has photos, names and ids
/// are unique, every photo has a photographer, and the last run's counts match the catalog.
func expectInvariants(_ photosync: PhotoSync, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let photos = try jsonArray(try await photosync("list", "--format", "json"))
    let photographers = try jsonArray(try await photosync("photographers", "--format", "json"))
    let ids = photos.compactMap { $0["id"] as? String }
    #expect(Set(ids).count == photos.count, "duplicate photo ids", sourceLocation: sourceLocation)
    let names = photographers.compactMap { $0["name"] as? String }
    #expect(Set(names).count == photographers.count, "duplicate photographers", sourceLocation: sourceLocation)
    #expect(photographers.allSatisfy { ($0["photos"] as? Int ?? 0) > 0 }, "a photographer without photos", sourceLocation: sourceLocation)
    let owners = photos.map { $0["photographer"] as? String ?? "" }
    #expect(owners.allSatisfy { names.contains($0) }, "a photo without a photographer", sourceLocation: sourceLocation)
    #expect(photographers.reduce(0) { $0 + ($1["photos"] as? Int ?? 0) } == photos.count, sourceLocation: sourceLocation)
    let status = try jsonObject(try await photosync("status", "--format", "json"))
    #expect(status["photos"] as? Int == photos.count, sourceLocation: sourceLocation)
    #expect(status["photographers"] as? Int == photographers.count, sourceLocation: sourceLocation)
}
