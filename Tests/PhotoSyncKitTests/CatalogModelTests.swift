import GraphStore
@testable import PhotoSyncKit
import PhotoSyncTestSupport
import Testing

/// The catalog's model as the built binary sees it (the Swift runtime is linked into it).
@Suite(.onTestThreads) struct CatalogModelTests {
    /// GraphStore finds every property of every catalog entity: what `Mirror` sees, it sees.
    @Test func everyPropertyOfTheCatalogIsSeen() throws {
        let model = try CatalogModel.make()
        #expect(model.propertiesMissedByReflection() == [])
        #expect(model.entity(named: "Photo")?.attributes.count ?? 0 >= 19)
    }
}
