import Foundation
import PhotoSyncTestSupport
import Testing

/// Deleting is the user's decision: it survives the next fetch until `restore` (issue 13).
@Suite("deletes that last", .onTestThreads)
struct DeletesThatLastTests {
    static let six: [FeedItem] = (1...6).map { FeedItem("\($0)", by: $0 <= 3 ? "Ana Lima" : "Bruno Costa", title: "P\($0)") }

    static func fetch(_ photosync: PhotoSync, _ server: TestHTTPServer) async throws -> [String: Any] {
        let result = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "10", "--format", "json")
        #expect(result.status == 0, "\(result)")
        return try jsonObject(result)
    }

    static func ids(_ photosync: PhotoSync) async throws -> [String] {
        try jsonArray(try await photosync("list", "--sort", "id", "--format", "json")).compactMap { $0["id"] as? String }
    }

    @Test(arguments: CatalogKind.allCases) func aDeletedPhotographerStaysDeletedUntilRestored(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            // Ana comes back under a new owner id, with a new photo: still excluded, by name.
            var ana7 = FeedItem("7", by: "Ana Lima", title: "P7")
            ana7.ownerID = "999@N09"
            server.serveFeed(Feed.pages(Self.six + [ana7], perPage: 10))
            _ = try await Self.fetch(photosync, server)

            let delete = try await photosync("delete", "--photographer", "Ana Lima")
            #expect(delete.status == 0, "\(delete)")
            try await expectInvariants(photosync)
            let again = try await Self.fetch(photosync, server)
            #expect(again["excluded"] as? Int == 4)
            #expect(again["inserted"] as? Int == 0)
            #expect(try await Self.ids(photosync) == ["4", "5", "6"])
            let status = try jsonObject(try await photosync("status", "--format", "json"))
            #expect(status["excluded_photos"] as? Int == 4)
            #expect(status["excluded_photographers"] as? Int == 1)
            try await expectInvariants(photosync)

            let restore = try await photosync("restore", "--photographer", "Ana Lima")
            #expect(restore.status == 0 && restore.stdout.contains("restored photographer Ana Lima"), "\(restore)")
            let back = try await Self.fetch(photosync, server)
            #expect(back["inserted"] as? Int == 4)
            #expect(try await Self.ids(photosync) == ["1", "2", "3", "4", "5", "6", "7"])
            try await expectInvariants(photosync)
        }
    }

    @Test(arguments: CatalogKind.allCases) func deletedIdsStayDeletedAndRestoreForgetsThemOneByOne(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Feed.pages(Self.six, perPage: 10))
            _ = try await Self.fetch(photosync, server)
            #expect(try await photosync("delete", "4", "5").status == 0)
            #expect(try await Self.fetch(photosync, server)["excluded"] as? Int == 2)
            #expect(try await Self.ids(photosync) == ["1", "2", "3", "6"])

            let unknown = try await photosync("restore", "4", "1")
            #expect(unknown.status == 1, "\(unknown)")
            #expect(try await photosync("restore", "4").status == 0)
            _ = try await Self.fetch(photosync, server)
            #expect(try await Self.ids(photosync) == ["1", "2", "3", "4", "6"])
            try await expectInvariants(photosync)
        }
    }

    @Test(arguments: CatalogKind.allCases) func forgetOnlyDeletesWithoutRemembering(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Feed.pages(Self.six, perPage: 10))
            _ = try await Self.fetch(photosync, server)
            #expect(try await photosync("delete", "--forget-only", "--photographer", "Bruno Costa").status == 0)
            #expect(try await Self.ids(photosync) == ["1", "2", "3"])
            let status = try jsonObject(try await photosync("status", "--format", "json"))
            #expect(status["excluded_photos"] as? Int == 0 && status["excluded_photographers"] as? Int == 0)
            #expect(try await Self.fetch(photosync, server)["inserted"] as? Int == 3)
        }
    }

    @Test(arguments: CatalogKind.allCases) func aDryRunDeleteChangesNothing(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Feed.pages(Self.six, perPage: 10))
            _ = try await Self.fetch(photosync, server)
            let dry = try await photosync("delete", "--dry-run", "--photographer", "Ana Lima")
            #expect(dry.status == 0, "\(dry)")
            #expect(dry.stdout == "would delete photo 1\nwould delete photo 2\nwould delete photo 3\nwould remove photographer Ana Lima\n")
            #expect(try await Self.ids(photosync) == ["1", "2", "3", "4", "5", "6"])
            let status = try jsonObject(try await photosync("status", "--format", "json"))
            #expect(status["excluded_photos"] as? Int == 0)
        }
    }
}
