import Foundation
import GraphStore
import GRDB
import PhotoSyncTestSupport
import Testing

/// `fetchColumns`: typed stored values of matching rows, without objects.
@Suite(.onTestThreads) struct FetchColumnsTests {
    private static func seeded(_ location: Location) throws -> TestStore {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        let ana = context.insert(Author.self)
        ana.name = "Ana"
        ana.country = "BR"
        for (isbn, title, pages, published) in [("1", "Alpha", 10, 100.0), ("2", "Beta", 20, nil), ("3", "Gamma", 30, 300.0)] {
            let book = context.insert(Book.self)
            book.isbn = isbn
            book.title = title
            book.pages = pages
            book.published = published.map(Date.init(timeIntervalSince1970:))
            book.author = isbn == "3" ? nil : ana
        }
        try context.save()
        return store
    }

    @Test(arguments: Location.allCases)
    func returnsTheNamedValuesOfMatchingRowsInOrder(_ location: Location) throws {
        let store = try Self.seeded(location)
        let context = try store.reader()
        let ana = try #require(try context.fetch(FetchRequest<Author>()).first)
        let books = try context.fetchColumns(
            FetchRequest<Book>(predicate: .isIn(\.$isbn, ["3", "1", "9"]), sortBy: [.descending(\.$pages)]),
            [\.$isbn, \.$title, \.$published, \.$author])
        #expect(try books.values(\.$isbn) == ["3", "1"])
        #expect(try books.values(\.$title) == ["Gamma", "Alpha"])
        #expect(try books.values(\.$published) == [Date(timeIntervalSince1970: 300), Date(timeIntervalSince1970: 100)])
        #expect(try books.destinations(\.$author) == [nil, ana.objectID])
        // The IDs are the rows' own: they find the same objects.
        #expect(try context.existingObject(with: books.ids[0], as: Book.self).isbn == "3")
    }

    /// Long `isIn` lists are padded to share statements: the padding matches nothing extra, and
    /// empty strings stay empty strings (not NULL).
    @Test(arguments: [Location.file, .postgres])
    func longInListsMatchExactlyTheirValues(_ location: Location) throws {
        let store = try Self.seeded(location)
        let context = try store.reader()
        for count in [3, 65, 130, 700] {
            let isbns = (0..<count).map { "x\($0)" } + ["2", "3"]
            let books = try context.fetchColumns(FetchRequest<Book>(predicate: .isIn(\.$isbn, isbns), sortBy: [.ascending(\.$isbn)]), [\.$isbn])
            #expect(try books.values(\.$isbn) == ["2", "3"], "\(count) values")
        }
        let writer = try store.open().newContext()
        writer.insert(Book.self).isbn = "empty-title"
        try writer.save()
        let titles = try store.reader().fetchColumns(FetchRequest<Book>(predicate: \.$title == ""), [\.$isbn]).values(\.$isbn)
        #expect(titles == ["empty-title"])
    }

    /// No objects are built: awakeFromFetch runs for a fetch of the same rows, not for fetchColumns.
    @Test(arguments: [Location.file, .postgres])
    func buildsNoObjects(_ location: Location) throws {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        for name in ["Ana", "Bo"] { context.insert(Photographer.self).name = name }
        try context.save()
        let log = HookLog()
        try HookLog.$current.withValue(log) {
            let reader = try store.reader()
            let names = try reader.fetchColumns(FetchRequest<Photographer>(sortBy: [.ascending(\.$name)]), [\.$name]).values(\.$name)
            #expect(names == ["Ana", "Bo"])
            #expect(log.count("awakeFromFetch") == 0)
            #expect(try reader.fetch(FetchRequest<Photographer>()).count == 2)
            #expect(log.count("awakeFromFetch") == 2)
        }
    }

    /// Values come from the store: a context's unsaved change is not part of them, a saved one is.
    @Test(arguments: [Location.file, .postgres])
    func readsTheStoreAsOfTheLastSave(_ location: Location) throws {
        let store = try Self.seeded(location)
        let context = try store.open().newContext()
        let book = try #require(try context.fetch(FetchRequest<Book>(predicate: \.$isbn == "2")).first)
        book.title = "Changed"
        let request = FetchRequest<Book>(predicate: \.$isbn == "2")
        #expect(try context.fetchColumns(request, [\.$title]).values(\.$title) == ["Beta"])
        try context.save()
        #expect(try store.reader().fetchColumns(request, [\.$title]).values(\.$title) == ["Changed"])
    }

    /// A Bool is an INTEGER column: 2 gets past STRICT, and reading the column reports it as a fetch does.
    @Test(arguments: [Location.file, .postgres])
    func aWrongStoredValueIsReportedAsCorrupt(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let context = try store.open(entities: [Setting.self]).newContext()
        context.insert(Setting.self).key = "sync"
        try context.save()
        try store.alter(#"UPDATE "Setting" SET "enabled" = 2"#)
        let settings = try store.open(entities: [Setting.self]).newContext().fetchColumns(FetchRequest<Setting>(), [\.$key, \.$enabled])
        #expect(try settings.values(\.$key) == ["sync"])
        #expect(throws: GraphStoreError.corruptValue(entity: "Setting", attribute: "enabled", rowID: 1)) {
            _ = try settings.values(\.$enabled)
        }
    }

    // MARK: - Values found absent

    /// Another connection stores a book between a context's fetch and its save.
    private static func storeMeanwhile(isbn: String, title: String = "", in store: TestStore) throws {
        let other = try store.open().newContext()
        let book = other.insert(Book.self)
        book.isbn = isbn
        book.title = title
        try other.save()
    }

    /// A fetchColumns changes nothing about the next save: a value it found absent but another
    /// context stored meanwhile is merged by the policy as always.
    @Test(arguments: [MergePolicy.objectTrump, .storeTrump], [Location.file, .postgres])
    func aValueStoredSinceTheFetchIsMergedByThePolicy(_ policy: MergePolicy, _ location: Location) throws {
        let store = try Self.seeded(location)
        let context = try store.open().newContext(mergePolicy: policy)
        let found = try context.fetchColumns(FetchRequest<Book>(predicate: .isIn(\.$isbn, ["1", "N"])), [\.$isbn]).values(\.$isbn)
        #expect(found == ["1"])

        try Self.storeMeanwhile(isbn: "N", title: "stored meanwhile", in: store)

        let mine = context.insert(Book.self)
        mine.isbn = "N"
        mine.title = "mine"
        var changes = ChangeSet()
        context.onDidSave { changes = $0 }
        try context.save()
        let stored = try store.reader().fetch(FetchRequest<Book>(predicate: \.$isbn == "N"))
        #expect(stored.count == 1)
        #expect(stored.first?.title == (policy == .objectTrump ? "mine" : "stored meanwhile"))
        #expect(changes.inserted(Book.self).isEmpty)
        #expect(mine.objectID == stored.first?.objectID)
    }

    @Test(arguments: [Location.file, .postgres])
    func underTheErrorPolicyItIsAConflict(_ location: Location) throws {
        let store = try Self.seeded(location)
        let context = try store.open().newContext(mergePolicy: .error)
        _ = try context.fetchColumns(FetchRequest<Book>(predicate: .isIn(\.$isbn, ["N"])), [\.$isbn])
        try Self.storeMeanwhile(isbn: "N", in: store)
        context.insert(Book.self).isbn = "N"
        #expect {
            try context.save()
        } throws: { error in
            guard case GraphStoreError.constraintConflicts(let conflicts) = error else { return false }
            return conflicts.map(\.values) == [["N"]]
        }
        #expect(try store.reader().count(FetchRequest<Book>(predicate: \.$isbn == "N")) == 1)
    }

    /// A dry run sees the value stored meanwhile too: it reports an update, not an insert, and writes nothing.
    @Test(arguments: [Location.file, .postgres])
    func aPreviewFallsBackToo(_ location: Location) throws {
        let store = try Self.seeded(location)
        let context = try store.open().newContext(mergePolicy: .objectTrump)
        _ = try context.fetchColumns(FetchRequest<Book>(predicate: .isIn(\.$isbn, ["N"])), [\.$isbn])
        try Self.storeMeanwhile(isbn: "N", in: store)
        let mine = context.insert(Book.self)
        mine.isbn = "N"
        mine.title = "mine"
        let preview = try context.previewSave()
        #expect(preview.inserted(Book.self).isEmpty)
        #expect(preview.updated(Book.self).count == 1)
        #expect(try store.reader().fetch(FetchRequest<Book>(predicate: \.$isbn == "N")).map(\.title) == [""])
    }
}
