import Foundation
import GRDB
import PhotoSyncTestSupport
import Testing

/// One NUL character from an untrusted feed blocked a PostgreSQL catalog for good: every fetch
/// failed on its page with SQLSTATE 22021 (issue 21). The rule, for both stores: NUL becomes
/// U+FFFD at the feed's edge, and `migrate` carries older SQLite text across the same way.
@Suite("NUL in feed text", .onTestThreads)
struct NULTextTests {
    /// 15 photos over 3 pages; page 2 holds a title and an owner name with NUL.
    static let pages: [Int: String] = {
        var pages: [Int: String] = [:]
        for number in 1...3 {
            let photos = (1...5).map { index -> String in
                let id = "\((number - 1) * 5 + index)"
                return number == 2 && index == 1
                    ? FeedJSON.photo(id, owner: "Ana\u{0}Lima", title: "evil\u{0}title") : FeedJSON.photo(id, title: "P\(id)")
            }
            pages[number] = FeedJSON.page(number, of: 3, perPage: 5, total: 15, photos: photos)
        }
        return pages
    }()

    @Test(arguments: [false, true])
    func aNULIsStoredAsTheReplacementCharacterOnBothStores(postgres: Bool) async throws {
        try await withSandbox(postgres: postgres, environment: Sandbox.inProcessServerEnvironment) { sandbox in
            try await TestHTTPServer.withRunning { server in
                server.serve(Self.pages)
                #expect(Self.pages[2]?.contains(#"evil\u0000title"#) == true, "the feed sends the JSON escape")
                for run in 1...2 {
                    let fetch = try await sandbox("fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "5", "--full")
                    #expect(fetch.status == 0, "run \(run): \(fetch)")
                }
                let rows = try await sandbox("list", "--format", "json").array()
                #expect(rows.count == 15)
                let evil = rows.first { $0["id"] as? String == "6" }
                #expect(evil?["title"] as? String == "evil\u{FFFD}title", "\(String(describing: evil))")
                #expect(evil?["photographer"] as? String == "Ana\u{FFFD}Lima", "\(String(describing: evil))")
            }
        }
    }

    /// A SQLite catalog written before the rule holds NUL; `migrate --to` PostgreSQL copies it
    /// with U+FFFD instead of failing.
    @Test func migrateCarriesNULAcrossAsTheReplacementCharacter() async throws {
        let postgres = try PostgresTestCatalog()
        try await withServerAndSandbox { server, sandbox in
            server.serve([1: FeedJSON.page(1, of: 1, perPage: 2, total: 2, photos: [FeedJSON.photo("1"), FeedJSON.photo("2")])])
            let fetch = try await sandbox("fetch", "--url", server.feedURL, "--api-key", "k")
            #expect(fetch.status == 0, "\(fetch)")
            let queue = try DatabaseQueue(path: sandbox.db)
            try await queue.write { try $0.execute(sql: #"UPDATE "Photo" SET title = 'old' || char(0) || 'nul' WHERE "unique" = '1'"#) }
            try queue.close()

            let migrate = try await sandbox("migrate", "--to", postgres.url)
            #expect(migrate.status == 0, "\(migrate)")
            let rows = try await sandbox.run(["list", "--format", "json", "--db", postgres.url]).array()
            #expect(rows.first { $0["id"] as? String == "1" }?["title"] as? String == "old\u{FFFD}nul", "\(rows)")
            #expect(rows.count == 2)
        }
    }
}
