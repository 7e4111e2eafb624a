import Foundation
@testable import GraphStore
import PhotoSyncTestSupport
import Testing

/// A command asks whether a catalog exists, then opens it: on PostgreSQL that must cost one
/// connection (a TLS and SCRAM handshake each), not two.
@Suite(.onTestThreads) struct PostgresProbeConnectionTests {
    private func model() throws -> ManagedObjectModel { try ManagedObjectModel(version: 1, entities: [Author.self, Book.self]) }

    @Test func aProbeLeavesItsConnectionForTheStoreOpenedNext() throws {
        let schema = try PostgresTestSchema()
        _ = try PersistentContainer(model: model(), location: .postgres(schema.url))
        #expect(try PersistentContainer.storeExists(at: .postgres(schema.url)))
        let spare = try #require(PostgresStore.spare(for: schema.url), "the probe closed its connection")
        #expect(spare.isReusable)
    }

    @Test func theStoreOpenedNextTakesTheProbesConnection() throws {
        let schema = try PostgresTestSchema()
        _ = try PersistentContainer(model: model(), location: .postgres(schema.url))
        #expect(try PersistentContainer.storeExists(at: .postgres(schema.url)))
        let container = try PersistentContainer(model: model(), location: .postgres(schema.url), readOnly: true)
        #expect(PostgresStore.spare(for: schema.url) == nil, "the store opened a connection of its own")
        #expect(try container.newContext().count(FetchRequest<Author>()) == 0)
    }
}
