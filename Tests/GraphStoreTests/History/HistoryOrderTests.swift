import Foundation
@testable import GraphStore
import Synchronization
import PhotoSyncTestSupport
import Testing

@Suite("Persistent history: token order and batches", .onTestThreads)
struct HistoryOrderTests {
    /// Writers commit at once on PostgreSQL while a reader follows the tokens: what it reads, token
    /// after token, is every transaction, none skipped (a token taken out of commit order would be).
    /// Writer 0 saves large transactions, slow to write after their token; the others small ones.
    @Test func aFollowerOfConcurrentWritersMissesNothing() throws {
        let store = try HistoryStore(.postgres)
        _ = try store.open()
        let writers = 4
        let saves: @Sendable (Int) -> Int = { $0 == 0 ? 4 : 80 }
        let rows: @Sendable (Int) -> Int = { $0 == 0 ? 20_000 : 1 }
        let done = Atomic<Int>(0)
        let seen = Mutex<[String]>([])
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for writer in 0..<writers {
            group.enter()
            Thread {  // threads of their own: each waits on the server
                defer { done.add(1, ordering: .sequentiallyConsistent); group.leave() }
                do {
                    let container = try store.open()
                    for save in 0..<saves(writer) {
                        let context = container.newContext()
                        for row in 0..<rows(writer) { context.insert(Picture.self).code = "w\(writer)-\(save)-\(row)" }
                        try context.save()
                    }
                } catch { failures.withLock { $0.append("\(error)") } }
            }.start()
        }
        let follower = try store.open()
        var token = HistoryToken.start
        var finished = false
        while !finished {
            finished = done.load(ordering: .sequentiallyConsistent) == writers  // read once more after the last commit
            let page = try follower.history(after: token)
            #expect(page.transactions.allSatisfy { $0.token > token })
            seen.withLock { $0 += page.transactions.flatMap(\.changes).map(\.textKey) }
            token = page.token
        }
        group.wait()
        #expect(failures.withLock { $0 }.isEmpty)
        let all = seen.withLock { $0 }
        #expect(all.count == (0..<writers).map { saves($0) * rows($0) }.reduce(0, +) && Set(all).count == all.count)
    }

    /// An import that updates more rows than a PostgreSQL batch holds: the rows sent early were
    /// read before they changed, like the rest.
    @Test(arguments: historyLocations)
    func updatesBeyondOneBatchKeepTheirBeforeValues(_ location: Location) throws {
        let store = try HistoryStore(location)
        let container = try store.open()
        let count = 5_000 * 2 + 7
        for title in ["old", "new"] {
            var pictures = ImportRecords(Picture.self, key: \.$code)
            let field = pictures.field(\.$title)
            for index in 0..<count { pictures.append("p\(index)") { $0[field] = title } }
            try container.importing(mergePolicy: .objectTrump) { session in _ = try session.save(pictures) }
        }
        let updates = try #require(container.allHistory().last).changes
        #expect(updates.count == count)
        #expect(updates.allSatisfy { $0.values["title"] == .init(before: .text("old"), after: .text("new")) })
    }
}
