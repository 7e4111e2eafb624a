import Foundation
@testable import GraphStore
import GRDB
import PhotoSyncTestSupport
import Testing

/// SQLite's planner, given a literal LIMIT under 4, sorts every row rather than walk an index that
/// gives most of the order: GraphStore binds LIMIT and OFFSET, so a page of one reads the index.
@Suite(.onTestThreads) struct LimitPlanTests {
    @Test(arguments: [1, 2, 3, 50])
    func aSmallPageWalksTheIndexThatGivesItsOrder(_ limit: Int) throws {
        let store = TemporaryStore()
        let model = try ManagedObjectModel(version: 1, entities: [Clip.self, Roll.self])
        let container = try PersistentContainer(model: model, location: .file(store.path))
        try container.importing(mergePolicy: .objectTrump) { try $0.save(IndexesAfterImportTests.records(0..<200)) }
        let request = FetchRequest<Clip>(sortBy: [.ascending(\.$sortKey), .ascending(\.$code)], limit: limit, offset: limit == 50 ? 10 : nil)
        let (sql, arguments) = StoreStatements(model: model, dialect: .sqlite).select(request.query, model.entity(for: Clip.self)!)
        let plan = try DatabaseQueue(path: store.path).read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: StatementArguments(arguments.map(\.databaseValue))).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("Clip_sortKey_index") } && !plan.contains { $0.contains("TEMP B-TREE FOR ORDER BY") }, "\(sql): \(plan)")
        let fetched = try container.newContext().fetch(request).map(\.code)
        let all = try container.newContext().all(Clip.self, sortBy: [.ascending(\.$sortKey), .ascending(\.$code)]).map(\.code)
        #expect(fetched == Array(all.dropFirst(limit == 50 ? 10 : 0).prefix(limit)))
    }
}
