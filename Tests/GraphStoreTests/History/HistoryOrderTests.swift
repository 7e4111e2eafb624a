import Foundation
@testable import GraphStore
import Synchronization
import Testing

@Suite("Persistent history: token order and batches")
struct HistoryOrderTests {
    /// Writers commit at once on PostgreSQL while a reader follows the tokens: what it reads, token
    /// after token, is every transaction, none skipped (a token taken out of commit order would be).
    @Test func aFollowerOfConcurrentWritersMissesNothing() throws {
        let store = try HistoryStore(.postgres)
        _ = try store.open()
        let (writers, saves, rows) = (4, 25, 10)
        let done = Atomic<Int>(0)
        let seen = Mutex<[String]>([])
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for writer in 0..<writers {
            DispatchQueue.global().async(group: group) {
                defer { done.add(1, ordering: .sequentiallyConsistent) }
                do {
                    let container = try store.open()
                    for save in 0..<saves {
                        let context = container.newContext()
                        for row in 0..<rows { context.insert(Picture.self).code = "w\(writer)-\(save)-\(row)" }
                        try context.save()
                    }
                } catch { failures.withLock { $0.append("\(error)") } }
            }
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
        #expect(all.count == writers * saves * rows && Set(all).count == all.count)
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
