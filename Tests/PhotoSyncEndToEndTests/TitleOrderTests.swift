import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 22, defect 7: `list` sorts by title as a dictionary does (case folded, accents after
/// their base letters), the same on SQLite and PostgreSQL, never by the server's collation.
@Suite("title order", .onTestThreads)
struct TitleOrderTests {
    /// Awkward titles in the order `list` must show them: numerals, punctuation, accents
    /// precomposed and not, case, ß, a NUL the feed rules turn into U+FFFD, an empty title the
    /// feed rules call "Unknown", Greek, CJK, emoji. (Swift's `==` equates the two forms of "é":
    /// their places are checked by the neighbours.)
    static let expected = [
        "10 pássaros", "9 lives", "_MG_0270.jpg", "Ärger", "a\u{FFFD}b", "Cafe", "CAFÉ", "Cafe\u{301}", "café",
        "Cafés", "CHR_9340.jpg", "STRASSE", "Straße", "Últimos raios", "Unknown", "Zebra", "Σοφία", "東京タワー", "🌅 Sunrise",
    ]

    /// The same titles in another order, ids by position in it; the NUL as the feed sends it.
    static var items: [FeedItem] {
        expected.reversed().enumerated().map { index, title in
            let sent = title == "Unknown" ? "" : title.replacingOccurrences(of: "\u{FFFD}", with: "\u{0}")
            return FeedItem("\(index + 1)", by: index % 2 == 0 ? "Ana Lima" : "Bo Chen", title: sent)
        }
    }

    @Test(arguments: CatalogKind.allCases) func listSortsTitlesAsADictionary(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Feed.pages(Self.items, perPage: 7))
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456")
            try #require(fetch.status == 0, "\(fetch)")
            let list = try await photosync("list", "--format", "json")
            #expect(try jsonArray(list).map { $0["title"] as? String ?? "?" } == Self.expected, "\(list.stdout)")
            let window = try await photosync("list", "--format", "json", "--limit", "5")
            #expect(try jsonArray(window).map { $0["title"] as? String ?? "?" } == Array(Self.expected.prefix(5)))
            let one = try await photosync("list", "--format", "json", "--photographer", "Bo Chen")
            let theirs = Self.expected.reversed().enumerated().filter { $0.offset % 2 == 1 }.map(\.element).reversed()
            #expect(try jsonArray(one).map { $0["title"] as? String ?? "?" } == Array(theirs))
        }
    }
}
