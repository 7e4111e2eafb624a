import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// Merge policies × (conflict with a stored row / duplicates among new objects) × (to-one / to-many),
/// checked in memory and after reading back from a reopened store.
@Suite(.onTestThreads) struct MergePolicyTests {
    /// Stored: Ana (BR) with book 1 "Old" (100 pages); book 2 "Orphan" (50 pages, no author); Bo (no books).
    private func seed(_ store: TestStore) throws {
        let context = try store.open().newContext()
        let ana = context.insert(Author.self)
        ana.name = "Ana"
        ana.country = "BR"
        let bo = context.insert(Author.self)
        bo.name = "Bo"
        let one = context.insert(Book.self)
        one.isbn = "1"
        one.title = "Old"
        one.pages = 100
        one.author = ana
        let orphan = context.insert(Book.self)
        orphan.isbn = "2"
        orphan.title = "Orphan"
        orphan.pages = 50
        try context.save()
    }

    private func books(_ context: ObjectContext) throws -> [Book] { try context.all(Book.self, sortBy: [.ascending(\.$isbn)]) }

    // MARK: - Against a stored row

    @Test(arguments: Location.allCases)
    func objectTrumpAgainstStoreKeepsUnassignedValuesAndMergesRelationships(_ location: Location) throws {
        let store = try TestStore(location)
        try seed(store)
        let context = try store.open().newContext(mergePolicy: .objectTrump)
        let cy = context.insert(Author.self)
        cy.name = "Cy"
        // To-one: book 1 again, new title, pages never assigned, author changed to Cy.
        let one = context.insert(Book.self)
        one.isbn = "1"
        one.title = "New"
        one.author = cy
        // To-one never assigned: book 2 again with only a title; its stored (nil) author stays nil.
        let orphan = context.insert(Book.self)
        orphan.isbn = "2"
        orphan.title = "Orphan 2"
        // To-many: Ana again (country never assigned) with a new book: union with her stored book.
        let ana = context.insert(Author.self)
        ana.name = "Ana"
        let three = context.insert(Book.self)
        three.isbn = "3"
        three.title = "Three"
        three.author = ana
        var changes: ChangeSet?
        context.onDidSave { changes = $0 }
        try context.save()

        // In memory: the new objects took over the stored rows' identities.
        #expect(!ana.objectID.isTemporary && !one.objectID.isTemporary)
        #expect(ana.country == "BR")
        #expect(one.pages == 100)
        #expect(one.author === cy)
        #expect(ana.books.map(\.isbn) == ["3"])  // book 1 moved to Cy
        #expect(cy.books.map(\.isbn) == ["1"])
        #expect(three.author === ana)
        // Change set: Cy and book 3 inserted; book 1 and 2 updated; Ana merged without a changed value.
        #expect(changes?.inserted(Author.self).count == 1)
        #expect(changes?.inserted(Book.self).count == 1)
        #expect(changes?.updated(Book.self).count == 2)
        #expect(changes?.updated(Author.self).isEmpty == true)

        let reader = try store.reader()
        let stored = try books(reader)
        #expect(stored.map(\.isbn) == ["1", "2", "3"])
        #expect(stored.map(\.title) == ["New", "Orphan 2", "Three"])
        #expect(stored.map(\.pages) == [100, 50, 0])
        #expect(stored.map { $0.author?.name } == ["Cy", nil, "Ana"])
        let authors = try reader.all(Author.self, sortBy: [.ascending(\.$name)])
        #expect(authors.map(\.name) == ["Ana", "Bo", "Cy"])
        #expect(authors[0].country == "BR")
        #expect(authors[0].books.map(\.isbn) == ["3"])  // book 1 moved to Cy under objectTrump
        #expect(authors[2].books.map(\.isbn) == ["1"])
    }

    @Test(arguments: Location.allCases)
    func objectTrumpAgainstStoreKeepsStoredToOneWhenUnassigned(_ location: Location) throws {
        let store = try TestStore(location)
        try seed(store)
        let context = try store.open().newContext(mergePolicy: .objectTrump)
        let one = context.insert(Book.self)
        one.isbn = "1"
        one.title = "Retitled"
        try context.save()
        #expect(one.author?.name == "Ana")  // Core Data would blank the stored to-one here
        #expect(one.pages == 100)
        let reader = try store.reader()
        let stored = try books(reader)
        #expect(stored[0].title == "Retitled")
        #expect(stored[0].author?.name == "Ana")
        #expect(stored[0].author?.books.map(\.isbn) == ["1"])
        #expect(stored[0].pages == 100)
    }

    @Test(arguments: Location.allCases)
    func objectTrumpAssignedValuesWin(_ location: Location) throws {
        let store = try TestStore(location)
        try seed(store)
        let context = try store.open().newContext(mergePolicy: .objectTrump)
        let ana = context.insert(Author.self)
        ana.name = "Ana"
        ana.country = "PT"
        try context.save()
        let reader = try store.reader()
        #expect(try reader.all(Author.self, where: \.$name == "Ana").map(\.country) == ["PT"])
        #expect(try reader.count(FetchRequest<Author>()) == 2)
    }

    @Test(arguments: Location.allCases)
    func storeTrumpAgainstStoreKeepsStoredValuesAndAttachesNewRelationships(_ location: Location) throws {
        let store = try TestStore(location)
        try seed(store)
        let context = try store.open().newContext(mergePolicy: .storeTrump)
        let cy = context.insert(Author.self)
        cy.name = "Cy"
        let one = context.insert(Book.self)  // stored author Ana wins over Cy
        one.isbn = "1"
        one.title = "New"
        one.pages = 7
        one.author = cy
        let orphan = context.insert(Book.self)  // stored author is nil: Cy is attached
        orphan.isbn = "2"
        orphan.title = "Orphan 2"
        orphan.author = cy
        let ana = context.insert(Author.self)  // stored country wins; new book joins her books
        ana.name = "Ana"
        ana.country = "PT"
        let three = context.insert(Book.self)
        three.isbn = "3"
        three.author = ana
        var changes: ChangeSet?
        context.onDidSave { changes = $0 }
        try context.save()

        #expect(one.title == "Old" && one.pages == 100)
        #expect(one.author?.name == "Ana")
        #expect(orphan.author === cy)
        #expect(ana.country == "BR")
        #expect(Set(ana.books.map(\.isbn)) == ["1", "3"])
        #expect(Set(cy.books.map(\.isbn)) == ["2"])
        #expect(changes?.updated(Book.self).count == 1)  // only book 2 (its author); book 1 unchanged
        #expect(changes?.updated(Author.self).isEmpty == true)

        let reader = try store.reader()
        let stored = try books(reader)
        #expect(stored.map(\.title) == ["Old", "Orphan", ""])
        #expect(stored.map(\.pages) == [100, 50, 0])
        #expect(stored.map { $0.author?.name } == ["Ana", "Cy", "Ana"])
        let authors = try reader.all(Author.self, sortBy: [.ascending(\.$name)])
        #expect(authors.map(\.name) == ["Ana", "Bo", "Cy"])
        #expect(authors[0].country == "BR")
        #expect(Set(authors[0].books.map(\.isbn)) == ["1", "3"])
    }

    /// The stored row is already registered in the context: the new object folds into that instance,
    /// and nothing keeps pointing at the discarded duplicate.
    @Test(arguments: [MergePolicy.objectTrump, .storeTrump], Location.allCases)
    func foldIntoRegisteredInstanceLeavesNoDanglingReferences(_ policy: MergePolicy, _ location: Location) throws {
        let store = try TestStore(location)
        try seed(store)
        let context = try store.open().newContext(mergePolicy: policy)
        let registered = try context.all(Author.self, where: \.$name == "Ana")[0]
        let duplicate = context.insert(Author.self)
        duplicate.name = "Ana"
        let three = context.insert(Book.self)
        three.isbn = "3"
        three.author = duplicate
        try context.save()

        #expect(duplicate.context == nil)
        #expect(three.author === registered)
        #expect(Set(registered.books.map(\.isbn)) == ["1", "3"])
        #expect(!registered.books.contains { $0.author !== registered })
        let found = try context.all(Author.self, where: \.$name == "Ana")
        #expect(found.count == 1 && found[0] === registered)

        let reader = try store.reader()
        #expect(try reader.count(FetchRequest<Author>()) == 2)
        let ana = try reader.all(Author.self, where: \.$name == "Ana")[0]
        #expect(ana.objectID == registered.objectID)
        #expect(Set(ana.books.map(\.isbn)) == ["1", "3"])
    }

    // MARK: - Duplicates among new objects

    private struct Duplicates {
        let firstAuthor: Author, secondAuthor: Author, firstBook: Book, secondBook: Book
        let x: Author, y: Author
    }

    /// Two new "Dee" authors, each with a book; two new books "7", the first with X, the second with Y.
    private func insertDuplicates(_ context: ObjectContext) -> Duplicates {
        let x = context.insert(Author.self)
        x.name = "X"
        let y = context.insert(Author.self)
        y.name = "Y"
        let firstAuthor = context.insert(Author.self)
        firstAuthor.name = "Dee"
        firstAuthor.country = "FR"
        let secondAuthor = context.insert(Author.self)
        secondAuthor.name = "Dee"
        let a = context.insert(Book.self)
        a.isbn = "a"
        a.author = firstAuthor
        let b = context.insert(Book.self)
        b.isbn = "b"
        b.author = secondAuthor
        let firstBook = context.insert(Book.self)
        firstBook.isbn = "7"
        firstBook.title = "First"
        firstBook.author = x
        let secondBook = context.insert(Book.self)
        secondBook.isbn = "7"
        secondBook.title = "Second"
        secondBook.pages = 20
        secondBook.author = y
        return Duplicates(firstAuthor: firstAuthor, secondAuthor: secondAuthor, firstBook: firstBook, secondBook: secondBook, x: x, y: y)
    }

    @Test(arguments: [MergePolicy.objectTrump, .storeTrump], Location.allCases)
    func duplicatesAmongNewObjects(_ policy: MergePolicy, _ location: Location) throws {
        let store = try TestStore(location)
        let context = try store.open().newContext(mergePolicy: policy)
        let dup = insertDuplicates(context)
        var changes: ChangeSet?
        context.onDidSave { changes = $0 }
        try context.save()

        let (authorSurvivor, authorLoser) = policy == .objectTrump ? (dup.secondAuthor, dup.firstAuthor) : (dup.firstAuthor, dup.secondAuthor)
        let (bookSurvivor, bookLoser) = policy == .objectTrump ? (dup.secondBook, dup.firstBook) : (dup.firstBook, dup.secondBook)
        #expect(authorLoser.context == nil && bookLoser.context == nil)
        #expect(authorSurvivor.context === context && !authorSurvivor.objectID.isTemporary)
        #expect(authorSurvivor.country == "FR")  // only the first assigned it: kept under both policies
        #expect(Set(authorSurvivor.books.map(\.isbn)) == ["a", "b"])
        #expect(authorSurvivor.books.allSatisfy { $0.author === authorSurvivor })
        let expectedTitle = policy == .objectTrump ? "Second" : "First"
        let expectedAuthor = policy == .objectTrump ? dup.y : dup.x
        #expect(bookSurvivor.title == expectedTitle)
        #expect(bookSurvivor.pages == 20)  // assigned only by the second: kept under both policies
        #expect(bookSurvivor.author === expectedAuthor)
        #expect(expectedAuthor.books.contains { $0 === bookSurvivor })
        #expect(!dup.x.books.contains { $0 === bookLoser } && !dup.y.books.contains { $0 === bookLoser })
        #expect(changes?.inserted(Author.self).count == 3)
        #expect(changes?.inserted(Book.self).count == 3)

        let reader = try store.reader()
        let authors = try reader.all(Author.self, sortBy: [.ascending(\.$name)])
        #expect(authors.map(\.name) == ["Dee", "X", "Y"])
        #expect(authors[0].objectID == authorSurvivor.objectID)
        #expect(authors[0].country == "FR")
        #expect(Set(authors[0].books.map(\.isbn)) == ["a", "b"])
        let stored = try books(reader)
        #expect(stored.map(\.isbn) == ["7", "a", "b"])
        #expect(stored[0].objectID == bookSurvivor.objectID)
        #expect(stored[0].title == expectedTitle)
        #expect(stored[0].pages == 20)
        #expect(stored[0].author?.name == expectedAuthor.name)
        #expect(authors.first { $0.name == (policy == .objectTrump ? "X" : "Y") }?.books.isEmpty == true)
    }

    @Test(arguments: Location.allCases)
    func duplicatesAmongNewObjectsAndAStoredRow(_ location: Location) throws {
        let store = try TestStore(location)
        try seed(store)
        let context = try store.open().newContext(mergePolicy: .objectTrump)
        let first = context.insert(Book.self)
        first.isbn = "1"
        first.title = "First"
        let second = context.insert(Book.self)
        second.isbn = "1"
        second.pages = 5
        try context.save()
        #expect(first.context == nil)
        let reader = try store.reader()
        let stored = try books(reader)
        #expect(stored.count == 2)
        #expect(stored[0].title == "First" && stored[0].pages == 5 && stored[0].author?.name == "Ana")
        #expect(stored[0].objectID == second.objectID)
    }

    // MARK: - Error policy

    @Test(arguments: Location.allCases)
    func errorPolicyReportsEveryConflictWritesNothingAndRecovers(_ location: Location) throws {
        let store = try TestStore(location)
        try seed(store)
        let context = try store.open().newContext(mergePolicy: .error)
        let dup = insertDuplicates(context)
        let ana = context.insert(Author.self)
        ana.name = "Ana"
        let storedAna = try store.reader().all(Author.self, where: \.$name == "Ana")[0].objectID

        let error = #expect(throws: GraphStoreError.self) { try context.save() }
        guard case .constraintConflicts(let conflicts) = error else {
            Issue.record("expected constraintConflicts, got \(String(describing: error))")
            return
        }
        let expected: Set<String> = [
            "Author name Dee \([dup.firstAuthor.objectID, dup.secondAuthor.objectID]) nil",
            "Book isbn 7 \([dup.firstBook.objectID, dup.secondBook.objectID]) nil",
            "Author name Ana \([ana.objectID]) \(storedAna)",
        ]
        #expect(Set(conflicts.map { "\($0.entity) \($0.attributes.joined(separator: ",")) \($0.values.joined(separator: ",")) \($0.objects) \($0.storedObject.map { "\($0)" } ?? "nil")" }) == expected)
        #expect(conflicts.count == 3)
        // Nothing written, the context keeps its changes and objects.
        #expect(try store.reader().count(FetchRequest<Author>()) == 2)
        #expect(try store.reader().count(FetchRequest<Book>()) == 2)
        #expect(context.hasChanges)
        #expect(dup.firstAuthor.isInserted && dup.secondAuthor.isInserted && ana.isInserted)
        #expect(dup.firstAuthor.objectID.isTemporary)

        // Not poisoned: remove the duplicates and save again.
        context.delete(dup.secondAuthor)  // cascades to its new book "b"
        context.delete(dup.secondBook)
        context.delete(ana)
        try context.save()
        let reader = try store.reader()
        #expect(try reader.all(Author.self, sortBy: [.ascending(\.$name)]).map(\.name) == ["Ana", "Bo", "Dee", "X", "Y"])
        #expect(try books(reader).map(\.isbn) == ["1", "2", "7", "a"])
        #expect(try books(reader).first { $0.isbn == "7" }?.author?.name == "X")
    }

    @Test(arguments: [Location.file, .postgres])
    func errorPolicyThenSwitchingPolicySaves(_ location: Location) throws {
        let store = try TestStore(location)
        try seed(store)
        let context = try store.open().newContext()
        let ana = context.insert(Author.self)
        ana.name = "Ana"
        let book = context.insert(Book.self)
        book.isbn = "9"
        book.author = ana
        #expect(throws: GraphStoreError.self) { try context.save() }
        #expect(throws: GraphStoreError.self) { try context.save() }  // still failing, still nothing written
        #expect(try store.reader().count(FetchRequest<Book>()) == 2)
        context.mergePolicy = .objectTrump
        try context.save()
        #expect(!context.hasChanges)
        let reader = try store.reader()
        let stored = try reader.all(Author.self, where: \.$name == "Ana")
        #expect(stored.count == 1 && stored[0].country == "BR")
        #expect(Set(stored[0].books.map(\.isbn)) == ["1", "9"])
    }

    /// Unique values are compared as the store compares them, byte for byte: "é" precomposed and
    /// "e" with a combining accent are equal Swift strings but two names to SQLite, so neither
    /// the save nor a merge policy folds one into the other.
    @Test(arguments: [MergePolicy.error, .objectTrump], [Location.file, .postgres])
    func canonicallyEquivalentTextIsTwoValues(_ policy: MergePolicy, _ location: Location) throws {
        let (composed, decomposed) = ("Jos\u{E9}", "Jose\u{301}")
        #expect(composed == decomposed, "Swift's String equality")
        let store = try TestStore(location)
        let context = try store.open().newContext(mergePolicy: policy)
        context.insert(Author.self).name = composed
        context.insert(Author.self).name = decomposed
        try context.save()
        let names = try store.reader().all(Author.self).map { Array($0.name.utf8) }
        #expect(Set(names) == [Array(composed.utf8), Array(decomposed.utf8)])
    }

    // MARK: - Composite constraints

    @Test(arguments: [MergePolicy.error, .objectTrump, .storeTrump], Location.allCases)
    func compositeUniqueConstraint(_ policy: MergePolicy, _ location: Location) throws {
        let store = try TestStore(location)
        do {
            let context = try store.open().newContext()
            let event = context.insert(Event.self)
            event.source = "cal"
            event.externalID = 1
            event.title = "Stored"
            event.note = "keep"
            try context.save()
        }
        let context = try store.open().newContext(mergePolicy: policy)
        func insert(_ source: String, _ id: Int, _ title: String) -> Event {
            let event = context.insert(Event.self)
            event.source = source
            event.externalID = id
            event.title = title
            return event
        }
        let clash = insert("cal", 1, "New")
        _ = insert("cal", 2, "Other id")
        _ = insert("mail", 1, "Other source")
        let twinA = insert("mail", 2, "Twin A")
        let twinB = insert("mail", 2, "Twin B")

        if policy == .error {
            let error = #expect(throws: GraphStoreError.self) { try context.save() }
            guard case .constraintConflicts(let conflicts) = error else { Issue.record("got \(String(describing: error))"); return }
            #expect(conflicts.count == 2)
            let stored = conflicts.first { $0.storedObject != nil }
            #expect(stored?.entity == "Event")
            #expect(stored?.attributes == ["source", "externalID"])
            #expect(stored?.values == ["cal", "1"])
            #expect(stored?.objects == [clash.objectID])
            let twins = conflicts.first { $0.storedObject == nil }
            #expect(twins?.values == ["mail", "2"])
            #expect(twins?.objects == [twinA.objectID, twinB.objectID])
            #expect(try store.reader().count(FetchRequest<Event>()) == 1)
            return
        }
        try context.save()
        let events = try store.reader().all(Event.self, sortBy: [.ascending(\.$source), .ascending(\.$externalID)])
        #expect(events.map { "\($0.source)/\($0.externalID)" } == ["cal/1", "cal/2", "mail/1", "mail/2"])
        #expect(events[0].title == (policy == .objectTrump ? "New" : "Stored"))
        #expect(events[0].note == "keep")
        #expect(events[3].title == (policy == .objectTrump ? "Twin B" : "Twin A"))
    }
}
