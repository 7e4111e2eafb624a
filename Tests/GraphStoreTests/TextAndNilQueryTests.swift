import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// Case folding, `.numericText` order, nil through relationships and `isIn`, and the predicates
/// and sorts issue 12 found missing. Each runs in SQL against a reopened store.
@Suite(.onTestThreads) struct TextAndNilQueryTests {
    /// Books by isbn "1"..., titles as given; authors by name with optional countries.
    private static func store(_ location: Location, titles: [String], authors: [(String, String?)] = [], authorOfBook: [Int: Int] = [:]) throws -> (TestStore, ObjectContext) {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        let people = authors.map { name, country in
            let author = context.insert(Author.self)
            (author.name, author.country) = (name, country)
            return author
        }
        for (index, title) in titles.enumerated() {
            let book = context.insert(Book.self)
            (book.isbn, book.title) = (String(index + 1), title)
            book.author = authorOfBook[index].map { people[$0] }
        }
        try context.save()
        return (store, try store.reader())
    }

    private func titles(_ context: ObjectContext, _ predicate: FetchPredicate<Book>? = nil, _ sortBy: [FetchSort<Book>]) throws -> [String] {
        try context.fetch(FetchRequest(predicate: predicate, sortBy: sortBy)).map(\.title)
    }

    @Test(arguments: [Location.file, .postgres])
    func caseInsensitiveMatchingFoldsFullUnicode(_ location: Location) throws {
        let (store, context) = try Self.store(location, titles: ["straße", "ΣΟΦΌΣ", "e\u{301}cole", "Other"])
        defer { withExtendedLifetime(store) {} }
        let byISBN: [FetchSort<Book>] = [.ascending(\.$isbn)]
        #expect(try titles(context, .equals(\.$title, "STRASSE", caseInsensitive: true), byISBN) == ["straße"])
        #expect(try titles(context, .equals(\.$title, "σοφός", caseInsensitive: true), byISBN) == ["ΣΟΦΌΣ"])
        #expect(try titles(context, .equals(\.$title, "ÉCOLE", caseInsensitive: true), byISBN) == ["e\u{301}cole"])
        #expect(try titles(context, .contains(\.$title, "SS", caseInsensitive: true), byISBN) == ["straße"])
        #expect(try titles(context, .endsWith(\.$title, "Σ", caseInsensitive: true), byISBN) == ["ΣΟΦΌΣ"])
        #expect(try titles(context, .beginsWith(\.$title, "é", caseInsensitive: true), byISBN) == ["e\u{301}cole"])
        // Without `caseInsensitive`, `equals` is byte equality.
        #expect(try titles(context, .equals(\.$title, "STRASSE"), byISBN) == [])
        #expect(try titles(context, .equals(\.$title, "Other"), byISBN) == ["Other"])
    }

    /// Capital sharp s ("ẞ") folds as "ß" and "SS" do, on both engines (PostgreSQL's uppercasing
    /// keeps it, its lowercasing makes it "ß").
    @Test(arguments: [Location.file, .postgres])
    func capitalSharpSFoldsAsSS(_ location: Location) throws {
        let (store, context) = try Self.store(location, titles: ["GROẞ", "groß", "gross", "grob"])
        defer { withExtendedLifetime(store) {} }
        let byISBN: [FetchSort<Book>] = [.ascending(\.$isbn)]
        #expect(try titles(context, .equals(\.$title, "GROSS", caseInsensitive: true), byISBN) == ["GROẞ", "groß", "gross"])
        #expect(try titles(context, .equals(\.$title, "grOẞ", caseInsensitive: true), byISBN) == ["GROẞ", "groß", "gross"])
        #expect(try titles(context, .endsWith(\.$title, "ss", caseInsensitive: true), byISBN) == ["GROẞ", "groß", "gross"])
    }

    /// Where the engines differ (README, "PostgreSQL"): PostgreSQL's fold, built on uppercasing,
    /// matches Turkish dotless "ı" with "i"; SQLite's full case folding keeps them apart.
    @Test(arguments: [Location.file, .postgres])
    func dotlessIMatchesIOnPostgreSQLOnly(_ location: Location) throws {
        let (store, context) = try Self.store(location, titles: ["kırmızı", "KIRMIZI"])
        defer { withExtendedLifetime(store) {} }
        let matched = try titles(context, .equals(\.$title, "kirmizi", caseInsensitive: true), [.ascending(\.$isbn)])
        #expect(matched == (location == .postgres ? ["kırmızı", "KIRMIZI"] : ["KIRMIZI"]))
    }

    /// The sort folds as the predicates do: "straße" sorts with "STRASSE", before "Strassez".
    @Test(arguments: [Location.file, .postgres])
    func caseInsensitiveSortingFoldsTheSameWay(_ location: Location) throws {
        let (store, context) = try Self.store(location, titles: ["Strassez", "straße", "STRASSE", "σοφός", "ΣΟΦΌΣ", "Sofa"])
        defer { withExtendedLifetime(store) {} }
        #expect(try titles(context, nil, [.ascending(\.$title, .caseInsensitive)])
            == ["Sofa", "STRASSE", "straße", "Strassez", "ΣΟΦΌΣ", "σοφός"])
    }

    /// The list, in Finder's order.
    @Test(arguments: [Location.file, .postgres])
    func numericTextSortsDigitRunsByValue(_ location: Location) throws {
        let (store, context) = try Self.store(location, titles: ["2", "9", "B", "-5", "10", "007", "1.5", "100", "Zed", "a10", "A9", "b"])
        defer { withExtendedLifetime(store) {} }
        #expect(try titles(context, nil, [.ascending(\.$title, .numericText)])
            == ["-5", "1.5", "2", "007", "9", "10", "100", "A9", "a10", "B", "b", "Zed"])
        #expect(try titles(context, nil, [.descending(\.$title, .numericText)])
            == ["Zed", "b", "B", "a10", "A9", "100", "10", "9", "007", "2", "1.5", "-5"])
    }

    /// `.whose(author, name != "Ana")` matches a book without author, as `book.author?.name != "Ana"` does.
    @Test(arguments: [Location.file, .postgres])
    func nilLogicHoldsThroughAToOne(_ location: Location) throws {
        let (store, context) = try Self.store(location, titles: ["by Ana", "by Bo", "anonymous"], authors: [("Ana", "BR"), ("Bo", nil)],
                                              authorOfBook: [0: 0, 1: 1])
        defer { withExtendedLifetime(store) {} }
        let byISBN: [FetchSort<Book>] = [.ascending(\.$isbn)]
        #expect(try titles(context, .whose(\.$author, \.$name != "Ana"), byISBN) == ["by Bo", "anonymous"])
        #expect(try titles(context, .whose(\.$author, \.$name == "Ana"), byISBN) == ["by Ana"])
        #expect(try titles(context, !.whose(\.$author, \.$name == "Ana"), byISBN) == ["by Bo", "anonymous"])
        #expect(try titles(context, .whose(\.$author, \.$country != "BR"), byISBN) == ["by Bo", "anonymous"])
        #expect(try titles(context, .whose(\.$author, .isIn(\.$country, [nil])), byISBN) == ["by Bo", "anonymous"])
    }

    @Test(arguments: [Location.file, .postgres])
    func isInWithNilMatchesNil(_ location: Location) throws {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        for (name, country) in [("Ana", "BR"), ("Bo", nil), ("Cy", "PT")] as [(String, String?)] {
            let author = context.insert(Author.self)
            (author.name, author.country) = (name, country)
        }
        try context.save()
        let reader = try store.reader()
        func names(_ predicate: FetchPredicate<Author>) throws -> [String] {
            try reader.fetch(FetchRequest(predicate: predicate, sortBy: [.ascending(\.$name)])).map(\.name)
        }
        #expect(try names(.isIn(\.$country, [nil, "PT"])) == ["Bo", "Cy"])
        #expect(try names(.isIn(\.$country, [nil])) == ["Bo"])
        #expect(try names(!.isIn(\.$country, [nil, "PT"])) == ["Ana"])
        #expect(try names(.isIn(\.$country, ["BR"])) == ["Ana"])
    }

    @Test(arguments: [Location.file, .postgres])
    func optionalAttributesTakeContainsAndOrderedComparisons(_ location: Location) throws {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        for (isbn, published) in [("1", 100.0), ("2", 200.0), ("3", nil)] as [(String, Double?)] {
            let book = context.insert(Book.self)
            book.isbn = isbn
            book.published = published.map { Date(timeIntervalSince1970: $0) }
        }
        for (name, country) in [("Ana", "Brasil"), ("Bo", nil)] as [(String, String?)] {
            let author = context.insert(Author.self)
            (author.name, author.country) = (name, country)
        }
        try context.save()
        let reader = try store.reader()
        func isbns(_ predicate: FetchPredicate<Book>) throws -> [String] {
            try reader.fetch(FetchRequest(predicate: predicate, sortBy: [.ascending(\.$isbn)])).map(\.isbn)
        }
        #expect(try isbns(\.$published <= Date(timeIntervalSince1970: 100)) == ["1"])
        #expect(try isbns(\.$published >= Date(timeIntervalSince1970: 100)) == ["1", "2"])
        #expect(try isbns(!(\.$published >= Date(timeIntervalSince1970: 150))) == ["1", "3"])
        let countries = try reader.fetch(FetchRequest<Author>(predicate: .contains(\.$country, "RAS", caseInsensitive: true))).map(\.name)
        #expect(countries == ["Ana"])
        let without = try reader.fetch(FetchRequest<Author>(predicate: !.contains(\.$country, "ras"), sortBy: [.ascending(\.$name)])).map(\.name)
        #expect(without == ["Bo"])
    }

    /// `sortBy: [.ascending(\.$author, \.$name)]`; a book without author sorts first.
    @Test(arguments: [Location.file, .postgres])
    func sortsByAToOnesAttribute(_ location: Location) throws {
        let (store, context) = try Self.store(location, titles: ["by Cy", "by Ana", "anonymous", "by Bo"], authors: [("Cy", nil), ("Ana", nil), ("Bo", nil)],
                                              authorOfBook: [0: 0, 1: 1, 3: 2])
        defer { withExtendedLifetime(store) {} }
        #expect(try titles(context, nil, [.ascending(\.$author, \.$name)]) == ["anonymous", "by Ana", "by Bo", "by Cy"])
        #expect(try titles(context, nil, [.descending(\.$author, \.$name), .ascending(\.$isbn)]) == ["by Cy", "by Bo", "by Ana", "anonymous"])
    }
}
