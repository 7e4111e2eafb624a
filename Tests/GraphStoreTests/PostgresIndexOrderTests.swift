import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// PostgreSQL indexes are `NULLS FIRST`, so that `ASC NULLS FIRST` and `DESC NULLS LAST` (the
/// orders GraphStore sorts in, SQLite's) read them instead of sorting; a writable open rebuilds
/// the ones an earlier GraphStore made with PostgreSQL's default.
@Suite(.onTestThreads) struct PostgresIndexOrderTests {
    private func scoreIndex(_ store: TemporaryStore) throws -> String? {
        try store.indexDefinitions("Sample").first { $0.contains("Sample_score_index") }
    }

    @Test func aWritableOpenRebuildsANullsLastIndexAndSortsReadIt() throws {
        let store = try TemporaryStore(.postgres)
        let context = try store.open(entities: [Sample.self]).newContext()
        for number in 0..<2000 {
            let sample = context.insert(Sample.self)
            (sample.name, sample.score) = ("\(number)", number % 10 == 0 ? nil : Double(number))
        }
        try context.save()
        try store.alter("DROP INDEX \"Sample_score_index\"")
        try store.alter("CREATE INDEX \"Sample_score_index\" ON \"Sample\" (\"score\")")
        _ = try store.open(entities: [Sample.self], readOnly: true)
        #expect(try scoreIndex(store)?.hasSuffix("(score)") == true, "a read-only open changes nothing")
        _ = try store.open(entities: [Sample.self])
        #expect(try scoreIndex(store)?.hasSuffix("(score NULLS FIRST)") == true)
        try store.alter("ANALYZE \"Sample\"")
        let plan = try store.schema!.rows("EXPLAIN SELECT id FROM \"Sample\" ORDER BY \"score\" DESC NULLS LAST, \"id\" LIMIT 5").map { $0[0] }
        #expect(plan.contains { $0.contains("Index Scan Backward using \"Sample_score_index\"") }, "\(plan)")
        let sorted = try store.open(entities: [Sample.self]).newContext()
            .fetch(FetchRequest<Sample>(sortBy: [.descending(\.$score)], limit: 3)).map(\.score)
        #expect(sorted == [1999, 1998, 1997])
    }
}
