import Foundation
import GraphStore
import Testing

/// A fetch that includes pending changes matches and orders unsaved objects in memory; the store
/// matches and orders saved rows in SQL. The two must agree: the same books, fetched once unsaved
/// and once saved, come back the same, for every predicate and sort here.
@Suite struct PendingMatcherOracleTests {
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
}
