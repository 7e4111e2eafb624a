import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 22, defect 8: `--photographer` takes the exact name, else the one name equal after case
/// folding (said on stderr); several or none exit 1 with suggestions. A delete never guesses.
@Suite("photographer names as typed", .onTestThreads)
struct PhotographerMatchingTests {
    static let items = [
        FeedItem("1", by: "Ana Lima", title: "Dunes"), FeedItem("2", by: "Ana Lima", title: "Cliffs"),
        FeedItem("3", by: "Ana Luz", title: "Fog"), FeedItem("4", by: "Bo Chen", title: "Pier"),
    ]

    static func ids(_ result: PhotoSync.Result) throws -> [String] {
        try jsonArray(result).compactMap { $0["id"] as? String }.sorted()
    }

    @Test(arguments: CatalogKind.allCases) func listTakesTheOneCaseFoldedMatchAndSuggestsOtherwise(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Feed.pages(Self.items, perPage: 4))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456").status == 0)

            let folded = try await photosync("list", "--photographer", "ana lima", "--format", "json")
            #expect(try folded.status == 0 && Self.ids(folded) == ["1", "2"], "\(folded)")
            #expect(folded.stderr == "photosync: no photographer named 'ana lima'; using 'Ana Lima'\n", "\(folded)")

            let prefix = try await photosync("list", "--photographer", "Ana")
            #expect(prefix.status == 1 && prefix.stdout.isEmpty, "\(prefix)")
            #expect(prefix.stderr == "photosync: no photographer named 'Ana'; did you mean 'Ana Lima' or 'Ana Luz'?\n", "\(prefix)")

            let typo = try await photosync("list", "--photographer", "Bo Chem")
            #expect(typo.status == 1 && typo.stderr.contains("did you mean 'Bo Chen'?"), "\(typo)")
            let none = try await photosync("list", "--photographer", "Zed", "--format", "json")
            #expect(none.status == 1 && none.stderr == "photosync: no photographer named 'Zed'\n", "\(none)")

            // A second name equal after folding: exact names win, a folded one is ambiguous.
            server.serveFeed(Feed.pages([FeedItem("5", by: "ANA LIMA", title: "Loud")], perPage: 1))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456", "--full").status == 0)
            let exact = try await photosync("list", "--photographer", "ANA LIMA", "--format", "json")
            #expect(try exact.status == 0 && Self.ids(exact) == ["5"] && exact.stderr.isEmpty, "\(exact)")
            let ambiguous = try await photosync("list", "--photographer", "ana lima")
            #expect(ambiguous.status == 1 && ambiguous.stderr.contains("did you mean 'ANA LIMA' or 'Ana Lima'?"), "\(ambiguous)")
        }
    }

    @Test(arguments: CatalogKind.allCases) func deleteAsksForTheExactNameAndRestoreFoldsCase(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Feed.pages(Self.items, perPage: 4))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456").status == 0)

            let guess = try await photosync("delete", "--photographer", "ana lima")
            #expect(guess.status == 1 && guess.stdout.isEmpty, "\(guess)")
            #expect(guess.stderr.contains("did you mean 'Ana Lima'? A delete needs the exact name; nothing was deleted"), "\(guess)")
            let unknown = try await photosync("delete", "--photographer", "Ana")
            #expect(unknown.status == 1 && unknown.stderr.contains("did you mean 'Ana Lima' or 'Ana Luz'?"), "\(unknown)")
            #expect(try Self.ids(try await photosync("list", "--format", "json")) == ["1", "2", "3", "4"])

            #expect(try await photosync("delete", "--photographer", "Ana Lima").status == 0)
            let restore = try await photosync("restore", "--photographer", "ANA lima")
            #expect(restore.status == 0 && restore.stderr.contains("using 'Ana Lima'"), "\(restore)")
            let again = try await photosync("restore", "--photographer", "Ana Lima")
            #expect(again.status == 1 && again.stderr.contains("no excluded photographer named 'Ana Lima'"), "\(again)")
        }
    }
}
