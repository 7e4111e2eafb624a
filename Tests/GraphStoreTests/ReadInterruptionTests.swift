import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// `PersistentContainer.interruptReads()`: what a server calls on SIGTERM so that a long scan
/// does not hold it up.
@Suite(.onTestThreads) struct ReadInterruptionTests {
    /// A store whose case-insensitive `contains` scan takes seconds: long titles that only the full
    /// fold handles (a combining mark, a ligature, a letter past U+FFFF).
    private func slowStore(_ location: Location) throws -> TemporaryStore {
        let store = try TemporaryStore(location)
        let context = try store.open().newContext()
        let title = String(repeating: "Stra\u{301}ße ﬀ 𝐀 ", count: 4_000)
        for number in 0..<Self.books {
            let book = context.insert(Book.self)
            (book.isbn, book.title) = ("\(number)", title)
        }
        try context.save()
        return store
    }

    private static let books = 400

    /// Reads every title: a word none holds.
    private static let scan = FetchRequest<Book>(predicate: .contains(\.$title, "zzqx", caseInsensitive: true))

    private func isInterrupted(_ error: any Error) -> Bool {
        guard case .readFailed(let failure) = error as? GraphStoreError else { return false }
        return failure.kind == .interrupted
    }

    @Test(arguments: [Location.file, .postgres])
    func aRunningScanEndsInterrupted(_ location: Location) async throws {
        let store = try slowStore(location)
        let container = try store.open(readOnly: true)
        let started = DispatchSemaphore(value: 0)
        let scan = Task {
            await runOnDedicatedThread { () -> Result<Int, any Error> in
                started.signal()
                return Result { try container.newContext().count(Self.scan) }
            }
        }
        started.wait()
        // From a thread of its own: a sleep on the cooperative pool woke after the scan had ended
        // when hundreds of tests shared the pool.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.3)
            container.interruptReads()
        }
        let outcome = await scan.value
        #expect(throws: (any Error).self) { try outcome.get() }
        if case .failure(let error) = outcome { #expect(isInterrupted(error), "\(error)") }
    }

    @Test(arguments: [Location.file, .postgres])
    func laterStatementsAndReadsFailWritesGoOn(_ location: Location) throws {
        let store = try slowStore(location)
        let container = try store.open()
        let context = container.newContext()
        var secondScan: Int?
        #expect {
            try context.readingOneSnapshot {
                let before = try context.count(FetchRequest<Book>())
                #expect(before == Self.books)
                container.interruptReads()
                secondScan = try context.count(Self.scan)
            }
        } throws: { isInterrupted($0) }
        #expect(secondScan == nil)
        #expect(throws: (any Error).self) { try container.newContext().fetch(FetchRequest<Author>()) }
        do {
            _ = try container.newContext().fetch(FetchRequest<Author>())
        } catch {
            #expect(isInterrupted(error), "\(error)")
        }
        let writer = container.newContext()
        writer.insert(Author.self).name = "Ana"
        try writer.save()
        #expect(try store.open().newContext().count(FetchRequest<Author>()) == 1)
    }
}
