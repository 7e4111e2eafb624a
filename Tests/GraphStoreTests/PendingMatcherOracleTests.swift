import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// A fetch that includes pending changes matches and orders unsaved objects in memory; the store
/// matches and orders saved rows in SQL. The two must agree: the same books, fetched once unsaved
/// and once saved, come back the same, for every predicate and sort here.
@Suite(.onTestThreads) struct PendingMatcherOracleTests {
    static let titles = ["b2", "B10", "straße", "STRASSE x", "é", "e\u{301}", "Zed", "9", "007", "-5", "1.5", "",
                         "GROẞ", "İstanbul", "x١٠", "a10b", "a9z", "a007b", "A7a", "ΣΟΦΌΣ", "σοφός", "ǅ", "ﬀ"]

    static let predicates: [(String, FetchPredicate<Book>)] = [
        ("whose !=", .whose(\.$author, \.$name != "Ana")),
        ("whose ==", .whose(\.$author, \.$name == "Ana")),
        ("whose country nil", .whose(\.$author, \.$country == nil)),
        ("isIn with nil", .isIn(\.$published, [nil, Date(timeIntervalSince1970: 100)])),
        ("not isIn", !(.isIn(\.$title, ["b2", "Zed"]))),
        ("equals folded", .equals(\.$title, "STRASSE", caseInsensitive: true)),
        ("contains folded", .contains(\.$title, "ss", caseInsensitive: true)),
        ("contains folded ligature", .contains(\.$title, "FF", caseInsensitive: true)),
        ("beginsWith folded dotted I", .beginsWith(\.$title, "i\u{307}STAN", caseInsensitive: true)),
        ("equals folded titlecase", .equals(\.$title, "DŽ", caseInsensitive: true)),
        ("beginsWith", .beginsWith(\.$title, "e")),
        ("pages <=", \.$pages <= 5),
        ("all", .all),
    ]

    static let sorts: [(String, [FetchSort<Book>])] = [
        ("numericText", [.ascending(\.$title, .numericText)]),
        ("caseInsensitive desc", [.descending(\.$title, .caseInsensitive)]),
        ("by author's name", [.ascending(\.$author, \.$name), .ascending(\.$isbn)]),
        ("published", [.descending(\.$published), .ascending(\.$isbn)]),
    ]

    /// Books with every title, some without author or date.
    static func insertBooks(_ context: ObjectContext) {
        let ana = context.insert(Author.self)
        ana.name = "Ana"
        let bo = context.insert(Author.self)
        (bo.name, bo.country) = ("Bo", "PT")
        for (index, title) in titles.enumerated() {
            let book = context.insert(Book.self)
            (book.isbn, book.title, book.pages) = (String(format: "%03d", index), title, index)
            book.author = [ana, bo, nil][index % 3]
            book.published = index % 4 == 0 ? nil : Date(timeIntervalSince1970: Double(index % 2 == 0 ? 100 : 200))
        }
    }

    @Test(arguments: Location.allCases)
    func unsavedBooksMatchAndSortAsSavedOnesDo(_ location: Location) throws {
        let pending = try TestStore(.memory).open().newContext()
        Self.insertBooks(pending)
        let savedStore = try TestStore(location)
        let saving = try savedStore.open().newContext()
        Self.insertBooks(saving)
        try saving.save()
        let saved = try savedStore.open().newContext()
        for (name, predicate) in Self.predicates {
            for (sortName, sort) in Self.sorts {
                let request = FetchRequest<Book>(predicate: predicate, sortBy: sort)
                let inMemory = try pending.fetch(request).map(\.isbn)
                let inStore = try saved.fetch(request).map(\.isbn)
                #expect(inMemory == inStore, "\(name), sorted by \(sortName)")
            }
        }
    }

    // MARK: - Through a many-to-many join table

    static let notePredicates: [(String, FetchPredicate<Note>)] = [
        ("any label ==", .any(\.$labels, \.$name == "red")),
        ("any label !=", .any(\.$labels, \.$name != "red")),
        ("no label beginning with b", !(.any(\.$labels, .beginsWith(\.$name, "b")))),
        ("any label folded && stars", .any(\.$labels, .equals(\.$name, "GRÜN", caseInsensitive: true)) && \.$stars >= 1),
        ("any label isIn", .any(\.$labels, .isIn(\.$name, ["blue", "none"]))),
    ]

    static let labelPredicates: [(String, FetchPredicate<Label>)] = [
        ("any note without stars", .any(\.$notes, \.$stars == nil)),
        ("any note contains folded", .any(\.$notes, .contains(\.$title, "ss", caseInsensitive: true))),
        ("no note >= 2 stars", !(.any(\.$notes, \.$stars >= 2))),
        ("any note with a red label", .any(\.$notes, .any(\.$labels, \.$name == "red"))),
    ]

    /// Labels and notes linked in a fixed pattern (some notes and one label without partners).
    static func insertNotes(_ context: ObjectContext) {
        let labels = ["red", "blue", "grün", "black", "lonely"].map { name in
            let label = context.insert(Label.self)
            label.name = name
            return label
        }
        for (index, title) in titles.enumerated() {
            let note = context.insert(Note.self)
            (note.slug, note.title, note.stars) = (String(format: "%03d", index), title, index % 4 == 0 ? nil : index % 3)
            note.labels = labels.prefix(4).enumerated().filter { (position, _) in (index + position) % 3 == 0 && index % 5 != 4 }.map(\.element)
        }
    }

    @Test func unsavedNotesAndLabelsMatchThroughTheJoinTableAsSavedOnesDo() throws {
        let pending = try TestStore(.memory, entities: manyToManyEntities).open().newContext()
        Self.insertNotes(pending)
        let savedStore = try TestStore(.memory, entities: manyToManyEntities)
        let saving = try savedStore.open().newContext()
        Self.insertNotes(saving)
        try saving.save()
        let saved = try savedStore.open().newContext()
        for (name, predicate) in Self.notePredicates {
            let request = FetchRequest<Note>(predicate: predicate, sortBy: [.ascending(\.$title, .numericText), .ascending(\.$slug)])
            let inStore = try saved.fetch(request).map(\.slug)
            #expect(try pending.fetch(request).map(\.slug) == inStore, "\(name)")
            #expect(!inStore.isEmpty, "\(name) matches some notes")
        }
        for (name, predicate) in Self.labelPredicates {
            let request = FetchRequest<Label>(predicate: predicate, sortBy: [.descending(\.$name)])
            let inStore = try saved.fetch(request).map(\.name)
            #expect(try pending.fetch(request).map(\.name) == inStore, "\(name)")
            #expect(!inStore.isEmpty, "\(name) matches some labels")
        }
    }
}
