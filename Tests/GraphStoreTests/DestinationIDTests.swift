import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// `ToOne.destinationID`: a to-one read and set by ID, without loading the destination.
@Suite(.onTestThreads) struct DestinationIDTests {
    /// Ana and Bo (photographers), and Ana's photo "a1", saved; returns the store and the IDs by name.
    private static func seeded(_ location: Location) throws -> (TestStore, [String: ObjectID]) {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        let ana = context.insert(Photographer.self)
        ana.name = "Ana"
        context.insert(Photographer.self).name = "Bo"
        let photo = context.insert(Photo.self)
        photo.title = "a1"
        photo.photographer = ana
        try context.save()
        let people = try store.reader().fetchColumns(FetchRequest<Photographer>(), [\.$name])
        return (store, Dictionary(uniqueKeysWithValues: zip(try people.values(\.$name), people.ids)))
    }

    /// Each photo's photographer, as a reopened store reads them.
    private static func photographers(_ store: TestStore) throws -> [String: String?] {
        let reader = try store.reader()
        let photos = try reader.fetch(FetchRequest<Photo>())
        return Dictionary(uniqueKeysWithValues: photos.map { ($0.title, $0.photographer?.name) })
    }

    @Test(arguments: [Location.file, .postgres])
    func linksANewObjectToAStoredRowWithoutLoadingIt(_ location: Location) throws {
        let (store, ids) = try Self.seeded(location)
        let log = HookLog()
        try HookLog.$current.withValue(log) {
            let context = try store.open().newContext()
            let photo = context.insert(Photo.self)
            photo.title = "b1"
            photo.$photographer.destinationID = ids["Bo"]!
            #expect(photo.$photographer.destinationID == ids["Bo"]!)
            try context.save()
            #expect(photo.$photographer.destinationID == ids["Bo"]!)
        }
        #expect(log.count("awakeFromFetch:") == 0, "linking and saving loaded nothing: \(log.events)")
        #expect(try Self.photographers(store) == ["a1": "Ana", "b1": "Bo"])
    }

    /// Reading the relationship loads the destination, which lists the unsaved member at once.
    @Test(arguments: [Location.file, .postgres])
    func theDestinationLoadedLaterListsTheNewMember(_ location: Location) throws {
        let (store, ids) = try Self.seeded(location)
        let context = try store.open().newContext()
        let photo = context.insert(Photo.self)
        photo.title = "a2"
        photo.$photographer.destinationID = ids["Ana"]!
        let ana = try #require(photo.photographer)
        #expect(ana.name == "Ana")
        #expect(Set(ana.photos.map(\.title)) == ["a1", "a2"])
        let fetched = try context.existingObject(with: ids["Ana"]!, as: Photographer.self)
        #expect(fetched === ana)
    }

    /// A destination the context already holds is set as the object, inverse included.
    @Test(arguments: [Location.file, .postgres])
    func aRegisteredDestinationIsSetAsTheObject(_ location: Location) throws {
        let (store, ids) = try Self.seeded(location)
        let context = try store.open().newContext()
        let bo = try context.existingObject(with: ids["Bo"]!, as: Photographer.self)
        #expect(bo.photos.isEmpty)
        let photo = context.insert(Photo.self)
        photo.title = "b1"
        photo.$photographer.destinationID = ids["Bo"]!
        #expect(photo.photographer === bo)
        #expect(bo.photos.map(\.title) == ["b1"])
    }

    /// Moving a stored object to a row by ID takes it out of its old destination's members.
    @Test(arguments: [Location.file, .postgres])
    func movesAStoredObjectBetweenDestinations(_ location: Location) throws {
        let (store, ids) = try Self.seeded(location)
        let context = try store.open().newContext()
        let ana = try context.existingObject(with: ids["Ana"]!, as: Photographer.self)
        let photo = try #require(ana.photos.first)
        photo.$photographer.destinationID = ids["Bo"]!
        #expect(ana.photos.isEmpty)
        var changes = ChangeSet()
        context.onDidSave { changes = $0 }
        try context.save()
        #expect(changes.updated(Photo.self) == [photo.objectID])
        #expect(try Self.photographers(store) == ["a1": "Bo"])
    }

    @Test(arguments: [Location.file, .postgres])
    func nilClearsTheRelationship(_ location: Location) throws {
        let (store, ids) = try Self.seeded(location)
        let context = try store.open().newContext()
        let photo = try #require(try context.existingObject(with: ids["Ana"]!, as: Photographer.self).photos.first)
        photo.$photographer.destinationID = nil
        #expect(photo.photographer == nil)
        try context.save()
        #expect(try Self.photographers(store) == ["a1": String?.none])
    }

    /// Rollback forgets the link; a later load of the destination does not list the discarded object.
    @Test(arguments: [Location.file, .postgres])
    func rollbackForgetsTheLink(_ location: Location) throws {
        let (store, ids) = try Self.seeded(location)
        let context = try store.open().newContext()
        let photo = context.insert(Photo.self)
        photo.title = "b1"
        photo.$photographer.destinationID = ids["Bo"]!
        context.rollback()
        let bo = try context.existingObject(with: ids["Bo"]!, as: Photographer.self)
        #expect(bo.photos.isEmpty)
        #expect(try Self.photographers(store) == ["a1": "Ana"])
    }

    /// Under a merge policy, a new object that folds into a stored row takes its destination by ID.
    @Test(arguments: [Location.file, .postgres])
    func aDuplicateMergedIntoAStoredRowKeepsTheLinkedDestination(_ location: Location) throws {
        let store = try TestStore(location)
        let seed = try store.open().newContext()
        let ana = seed.insert(Author.self)
        ana.name = "Ana"
        seed.insert(Author.self).name = "Bo"
        let book = seed.insert(Book.self)
        book.isbn = "1"
        book.title = "Old"
        book.author = ana
        try seed.save()
        let authors = try store.reader().fetchColumns(FetchRequest<Author>(predicate: .isIn(\.$name, ["Bo"])), [\.$name])
        let context = try store.open().newContext(mergePolicy: .objectTrump)
        let again = context.insert(Book.self)
        again.isbn = "1"
        again.title = "New"
        again.$author.destinationID = try #require(authors.ids.first)
        try context.save()
        let reader = try store.reader()
        let stored = try reader.fetch(FetchRequest<Book>())
        #expect(stored.map { "\($0.title) by \($0.author?.name ?? "nil")" } == ["New by Bo"])
    }
}
