import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// Misuse that cannot throw stops the process with a message naming the object (exit tests: the
/// body runs in a child process, and its standard error is read back).
@Suite(.onTestThreads) struct MisusePreconditionTests {
    private func expectStop(saying text: String, _ result: ExitTest.Result?) {
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(text), "stderr: \(message)")
    }

    @Test func changingAnObjectWhoseContextIsGoneStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Author.self, Book.self]), location: .inMemory)
            var context: ObjectContext? = container.newContext()
            let author = context!.insert(Author.self)
            author.name = "Ana"
            try context!.save()
            context = nil
            #expect(author.name == "Ana")  // reading still works
            author.name = "Bo"
        }
        expectStop(saying: "Author/1 was changed after its context was released or reset", result)
    }

    @Test func insertingAnObjectOfAResetContextElsewhereStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Author.self, Book.self]), location: .inMemory)
            let context = container.newContext()
            let author = context.insert(Author.self)
            author.name = "Ana"
            try context.save()
            context.reset()
            container.newContext().insert(author)
        }
        expectStop(saying: "Author/1 was inserted after its context was released or reset", result)
    }

    @Test func insertingAnEntityOutsideTheModelStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Author.self, Book.self]), location: .inMemory)
            container.newContext().insert(Event.self)
        }
        expectStop(saying: "Event is not an entity of this store's model", result)
    }

    @Test func deletingAnotherContextsObjectStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Author.self, Book.self]), location: .inMemory)
            let first = container.newContext()
            let author = first.insert(Author.self)
            author.name = "Ana"
            try first.save()
            container.newContext().delete(author)
        }
        expectStop(saying: "Author/1 belongs to another context", result)
    }

    @Test func destinationIDOfAnotherContextsNewObjectStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Author.self, Book.self]), location: .inMemory)
            let (first, second) = (container.newContext(), container.newContext())
            let author = first.insert(Author.self)
            let book = second.insert(Book.self)
            book.$author.destinationID = author.objectID
            withExtendedLifetime((first, second)) {}
        }
        expectStop(saying: "is a temporary ID of another context", result)
    }

    @Test func previewSaveOnAChildStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Author.self, Book.self]), location: .inMemory)
            let child = container.newContext().newChildContext()
            child.insert(Author.self).name = "Ana"
            _ = try child.previewSave()
        }
        expectStop(saying: "previewSave() needs a context on the store", result)
    }
}

extension Location: Codable {}

/// A duplicate a merge discarded can never be saved: changing it stops the process (issue 30, defect 5).
@Suite(.onTestThreads) struct DiscardedDuplicateTests {
    @Test(arguments: [Location.file, .postgres])
    func changingADiscardedDuplicateStops(_ location: Location) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [location] in
            let store = try TestStore(location, entities: manyToManyEntities)
            let context = try store.open().newContext()
            context.mergePolicy = .objectTrump
            let (first, last) = (context.insert(Label.self), context.insert(Label.self))
            first.name = "dup"
            last.name = "dup"
            try context.save()
            #expect(first.context == nil && last.context === context)
            first.name = "zzz"
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("was changed after a save discarded it as a duplicate"), "stderr: \(message)")
    }
}
