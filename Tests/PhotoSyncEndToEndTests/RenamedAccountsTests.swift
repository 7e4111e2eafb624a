import Foundation
import PhotoSyncTestSupport
import Testing

/// NSIDs do not change upstream, display names do (issue 25): a known account under a new name
/// renames its photographer, photos and deletes included.
@Suite("renamed accounts", .onTestThreads)
struct RenamedAccountsTests {
    static let account = "4242@N01"

    static func item(_ id: String, by name: String, ownerID: String? = nil) -> FeedItem {
        var item = FeedItem(id, by: name, title: "P\(id)", uploaded: String(1_700_000_000 + Int(id)! * 60))
        if let ownerID { item.ownerID = ownerID }
        return item
    }

    static func fetch(_ photosync: PhotoSync, _ server: TestHTTPServer, _ items: [FeedItem]) async throws -> [String: Any] {
        server.serveFeed(Feed.pages(items, perPage: 10))
        let result = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "10", "--full", "--format", "json")
        #expect(result.status == 0, "\(result)")
        return try jsonObject(result)
    }

    /// Each photographer with their photo ids, sorted.
    static func owners(_ photosync: PhotoSync) async throws -> [String: [String]] {
        let photos = try jsonArray(try await photosync("list", "--format", "json"))
        var owners: [String: [String]] = [:]
        for photo in photos { owners[photo["photographer"] as? String ?? "?", default: []].append(photo["id"] as? String ?? "?") }
        return owners.mapValues { $0.sorted() }
    }

    @Test(arguments: CatalogKind.allCases) func aKnownAccountUnderANewNameIsRenamedWithItsPhotos(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let first = ["1", "2", "3"].map { Self.item($0, by: "Old Name", ownerID: Self.account) } + [Self.item("4", by: "Bruno Costa")]
            _ = try await Self.fetch(photosync, server, first)
            // Only photo 3 (and a new one) come back, under the new name.
            let second = try await Self.fetch(photosync, server, ["3", "5"].map { Self.item($0, by: "New Name", ownerID: Self.account) })
            #expect(second["photographers_renamed"] as? Int == 1)
            #expect(second["photographers_inserted"] as? Int == 0)
            #expect(second["photographers_removed"] as? Int == 0)
            #expect(try await Self.owners(photosync) == ["New Name": ["1", "2", "3", "5"], "Bruno Costa": ["4"]])
            let photographers = try jsonArray(try await photosync("photographers", "--format", "json"))
            #expect(photographers.compactMap { $0["name"] as? String }.sorted() == ["Bruno Costa", "New Name"])
            try await expectInvariants(photosync)
            // Nothing more to rename: the next run renames nothing.
            let third = try await Self.fetch(photosync, server, ["3", "5"].map { Self.item($0, by: "New Name", ownerID: Self.account) })
            #expect(third["photographers_renamed"] as? Int == 0)
        }
    }

    @Test(arguments: CatalogKind.allCases) func aNameAnotherAccountHoldsIsNotTaken(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let first = ["1", "2"].map { Self.item($0, by: "Old Name", ownerID: Self.account) } + [Self.item("3", by: "Shared Name")]
            _ = try await Self.fetch(photosync, server, first)
            let second = try await Self.fetch(photosync, server, [Self.item("4", by: "Shared Name", ownerID: Self.account)])
            #expect(second["photographers_renamed"] as? Int == 0)
            #expect(try await Self.owners(photosync) == ["Old Name": ["1", "2"], "Shared Name": ["3", "4"]])
            try await expectInvariants(photosync)
        }
    }

    @Test(arguments: CatalogKind.allCases) func aDeletedAccountStaysDeletedUnderItsNewName(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let first = ["1", "2"].map { Self.item($0, by: "Old Name", ownerID: Self.account) } + [Self.item("3", by: "Bruno Costa")]
            _ = try await Self.fetch(photosync, server, first)
            #expect(try await photosync("delete", "--photographer", "Old Name").status == 0)
            let renamed = ["1", "2", "5"].map { Self.item($0, by: "New Name", ownerID: Self.account) } + [Self.item("3", by: "Bruno Costa")]
            let again = try await Self.fetch(photosync, server, renamed)
            #expect(again["excluded"] as? Int == 3)
            #expect(again["inserted"] as? Int == 0)
            #expect(try await Self.owners(photosync) == ["Bruno Costa": ["3"]])
            try await expectInvariants(photosync)

            #expect(try await photosync("restore", "--photographer", "Old Name").status == 0)
            let back = try await Self.fetch(photosync, server, renamed)
            #expect(back["inserted"] as? Int == 3)
            #expect(try await Self.owners(photosync) == ["New Name": ["1", "2", "5"], "Bruno Costa": ["3"]])
        }
    }
}
