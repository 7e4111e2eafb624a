import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// `memberCounts`: the members of a to-many per owner, counted by the store (all owners, or some).
@Suite(.onTestThreads) struct AggregateTests {
    @Test(arguments: Location.allCases)
    func memberCountsCountEachOwnersMembersAndSkipOwnersWithout(_ location: Location) throws {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        let owners = ["Ana", "Bo", "Cy"].map { name in
            let owner = context.insert(Photographer.self)
            owner.name = name
            return owner
        }
        for (title, owner) in [("a1", 0), ("a2", 0), ("b1", 1)] {
            let photo = context.insert(Photo.self)
            (photo.title, photo.photographer) = (title, owners[owner])
        }
        context.insert(Photo.self).title = "nobody's"
        try context.save()
        let reader = try store.reader()
        let counts = try reader.memberCounts(\Photographer.$photos)
        let named = try reader.all(Photographer.self).reduce(into: [String: Int]()) { $0[$1.name] = counts[$1.objectID] }
        #expect(named == ["Ana": 2, "Bo": 1])
        #expect(counts.count == 2)

        let some = try reader.all(Photographer.self, where: \.$name != "Ana")
        let theirs = try reader.memberCounts(\Photographer.$photos, of: some.map(\.objectID))
        #expect(theirs == counts.filter { id, _ in some.contains { $0.objectID == id } }, "only the owners asked, Bo's 1")
        #expect(theirs.count == 1)
        #expect(try reader.memberCounts(\Photographer.$photos, of: []).isEmpty)
    }
}
