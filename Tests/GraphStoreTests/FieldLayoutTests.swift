@testable import GraphStore
import PhotoSyncTestSupport
import Testing

/// GraphStore reads an entity's wrappers from the runtime's field metadata (a private API); these
/// compare it with `Mirror`, which a model no longer does at each start.
@Suite(.onTestThreads) struct FieldLayoutTests {
    /// Every property of the test models is seen: the private API still says what `Mirror` says.
    @Test func theFieldMetadataSeesEveryWrapperOfTheTestModels() throws {
        for entities in [allEntities, manyToManyEntities] {
            let model = try ManagedObjectModel(version: 1, entities: entities)
            #expect(model.propertiesMissedByReflection() == [])
            #expect(model.entities.allSatisfy { !FieldLayout.of($0.objectType).fields.isEmpty })
        }
    }

    /// The comparison does find a wrapper the field list lacks: an optional one, which the field
    /// metadata names apart so that the model refuses it.
    @Test func mirrorFindsTheOptionalWrapperTheFieldListLacks() {
        #expect(FieldLayout.unreflectedWrappers(of: HiddenWrapper.self) == ["maybe"])
        #expect(FieldLayout.of(HiddenWrapper.self).fields.map(\.name) == ["name"])
        #expect(FieldLayout.of(HiddenWrapper.self).optionalWrappers == ["maybe"])
    }
}
