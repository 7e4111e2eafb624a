import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

@Suite(.onTestThreads) struct PredicateTests {
    /// Ana (BR): "ÉCOLE" 9 "9" p300, "école" 10 "10" p120; Bo (no country): "Ecole" 2 "2" p50;
    /// Cy (PT): no books; "Stray" "100" p120 without author.
    private static func makeStore(_ location: Location) throws -> (TestStore, ObjectContext) {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        func author(_ name: String, _ country: String?) -> Author {
            let author = context.insert(Author.self)
            author.name = name
            author.country = country
            return author
        }
        let ana = author("Ana", "BR"), bo = author("Bo", nil)
        _ = author("Cy", "PT")
        func book(_ isbn: String, _ title: String, _ pages: Int, _ by: Author?, _ published: Double? = nil) {
            let book = context.insert(Book.self)
            book.isbn = isbn
            book.title = title
            book.pages = pages
            book.author = by
            book.published = published.map(Date.init(timeIntervalSince1970:))
        }
        book("9", "ÉCOLE", 300, ana, 1000)
        book("10", "école", 120, ana, 2000)
        book("2", "Ecole", 50, bo)
        book("100", "Stray", 120, nil, 3000)
        try context.save()
        return (store, try store.reader())
    }

    private func isbns(_ context: ObjectContext, _ predicate: FetchPredicate<Book>?, sortBy: [FetchSort<Book>] = [.ascending(\.$isbn, .numericText)]) throws -> [String] {
        try context.fetch(FetchRequest(predicate: predicate, sortBy: sortBy)).map(\.isbn)
    }

    @Test(arguments: [Location.file, .postgres])
    func comparisons(_ location: Location) throws {
        let (store, context) = try Self.makeStore(location)
        defer { withExtendedLifetime(store) {} }
        #expect(try isbns(context, \.$pages == 120) == ["10", "100"])
        #expect(try isbns(context, \.$pages != 120) == ["2", "9"])
        #expect(try isbns(context, \.$pages < 120) == ["2"])
        #expect(try isbns(context, \.$pages <= 120) == ["2", "10", "100"])
        #expect(try isbns(context, \.$pages > 120) == ["9"])
        #expect(try isbns(context, \.$pages >= 120) == ["9", "10", "100"])
        #expect(try isbns(context, \.$published > Date(timeIntervalSince1970: 1500)) == ["10", "100"])
        #expect(try isbns(context, \.$published < Date(timeIntervalSince1970: 1500)) == ["9"])
        #expect(try isbns(context, \.$published == nil) == ["2"])
        #expect(try isbns(context, \.$published != nil) == ["9", "10", "100"])
    }

    @Test(arguments: [Location.file, .postgres])
    func isIn(_ location: Location) throws {
        let (store, context) = try Self.makeStore(location)
        defer { withExtendedLifetime(store) {} }
        #expect(try isbns(context, .isIn(\.$pages, [50, 300])) == ["2", "9"])
        #expect(try isbns(context, .isIn(\.$isbn, ["10", "nope"])) == ["10"])
        #expect(try isbns(context, .isIn(\.$pages, [])) == [])
        #expect(try isbns(context, !.isIn(\.$pages, [])) == ["2", "9", "10", "100"])
    }

    @Test(arguments: [Location.file, .postgres])
    func stringMatchesWithUnicodeCaseFolding(_ location: Location) throws {
        let (store, context) = try Self.makeStore(location)
        defer { withExtendedLifetime(store) {} }
        #expect(try isbns(context, .contains(\.$title, "cole")) == ["2", "10"])
        #expect(try isbns(context, .contains(\.$title, "école")) == ["10"])
        #expect(try isbns(context, .contains(\.$title, "école", caseInsensitive: true)) == ["9", "10"])
        #expect(try isbns(context, .contains(\.$title, "ÉCOLE", caseInsensitive: true)) == ["9", "10"])
        #expect(try isbns(context, .beginsWith(\.$title, "É")) == ["9"])
        #expect(try isbns(context, .beginsWith(\.$title, "éc", caseInsensitive: true)) == ["9", "10"])
        #expect(try isbns(context, .beginsWith(\.$title, "ec", caseInsensitive: true)) == ["2"])
        #expect(try isbns(context, .endsWith(\.$title, "OLE")) == ["9"])
        #expect(try isbns(context, .endsWith(\.$title, "OLE", caseInsensitive: true)) == ["2", "9", "10"])
        #expect(try isbns(context, .endsWith(\.$title, "")) == ["2", "9", "10", "100"])
        #expect(try isbns(context, .contains(\.$title, "%")) == [])  // no LIKE wildcards
        #expect(try isbns(context, .contains(\.$title, "_", caseInsensitive: true)) == [])
    }

    /// A list longer than a PostgreSQL statement's 65,535 parameters, holding text an array
    /// literal must quote ("NULL", braces, commas, quotes, backslashes, the empty string).
    @Test(arguments: [Location.file, .postgres])
    func isInTakesAnyNumberOfAnyValues(_ location: Location) throws {
        let (store, context) = try Self.makeStore(location)
        defer { withExtendedLifetime(store) {} }
        let tricky = ["NULL", "{9}", "9,10", "\"9\"", "back\\slash", "", " 100", "100 "]
        let many = (0..<70_000).map { "x\($0)" }
        #expect(try isbns(context, .isIn(\.$isbn, many + ["10"] + tricky)) == ["10"])
        #expect(try isbns(context, .isIn(\.$isbn, tricky)) == [])
        #expect(try isbns(context, .isIn(\.$pages, (0..<70_000).map { $0 * 1_000 + 50 })) == ["2"])
        #expect(try isbns(context, .isIn(\.$published, [Date(timeIntervalSince1970: 2000), nil])) == ["2", "10"])
        #expect(try isbns(context, !.isIn(\.$isbn, many + ["2", "9"])) == ["10", "100"])
    }

    @Test(arguments: [Location.file, .postgres])
    func logic(_ location: Location) throws {
        let (store, context) = try Self.makeStore(location)
        defer { withExtendedLifetime(store) {} }
        #expect(try isbns(context, \.$pages == 120 && .beginsWith(\.$title, "S")) == ["100"])
        #expect(try isbns(context, \.$pages == 50 || \.$pages == 300) == ["2", "9"])
        #expect(try isbns(context, !(\.$pages == 120)) == ["2", "9"])
        #expect(try isbns(context, !(\.$pages == 120 || \.$pages == 50)) == ["9"])
        #expect(try isbns(context, (\.$pages == 120 || \.$pages == 50) && !.isNil(\.$author)) == ["2", "10"])
        #expect(try isbns(context, .all) == ["2", "9", "10", "100"])
    }

    /// Optional attributes follow Swift's semantics: nil is "not equal" to any value.
    @Test(arguments: [Location.file, .postgres])
    func optionalInequalityIncludesNil(_ location: Location) throws {
        let (store, context) = try Self.makeStore(location)
        defer { withExtendedLifetime(store) {} }
        #expect(try context.all(Author.self, sortBy: [.ascending(\.$name)], where: \.$country != "BR").map(\.name) == ["Bo", "Cy"])
        #expect(try context.all(Author.self, sortBy: [.ascending(\.$name)], where: !(\.$country == "BR")).map(\.name) == ["Bo", "Cy"])
        #expect(try context.all(Author.self, sortBy: [.ascending(\.$name)], where: \.$country == "BR").map(\.name) == ["Ana"])
    }

    @Test(arguments: [Location.file, .postgres])
    func relationships(_ location: Location) throws {
        let (store, context) = try Self.makeStore(location)
        defer { withExtendedLifetime(store) {} }
        #expect(try isbns(context, .whose(\.$author, \.$name == "Ana")) == ["9", "10"])
        // Swift's `book.author?.country == nil` holds without an author too ("100").
        #expect(try isbns(context, .whose(\.$author, \.$country == nil)) == ["2", "100"])
        #expect(try isbns(context, .isNil(\.$author)) == ["100"])
        #expect(try isbns(context, .isNil(\.$author, false)) == ["2", "9", "10"])
        #expect(try isbns(context, !.whose(\.$author, \.$name == "Ana")) == ["2", "100"])
        let withLongBooks = try context.all(Author.self, sortBy: [.ascending(\.$name)], where: .any(\.$books, \.$pages > 100))
        #expect(withLongBooks.map(\.name) == ["Ana"])
        let withoutBooks = try context.all(Author.self, where: !.any(\.$books, .all))
        #expect(withoutBooks.map(\.name) == ["Cy"])
    }

    @Test(arguments: [Location.file, .postgres])
    func sorts(_ location: Location) throws {
        let (store, context) = try Self.makeStore(location)
        defer { withExtendedLifetime(store) {} }
        #expect(try isbns(context, nil, sortBy: [.ascending(\.$isbn)]) == ["10", "100", "2", "9"])
        #expect(try isbns(context, nil, sortBy: [.ascending(\.$isbn, .numericText)]) == ["2", "9", "10", "100"])
        #expect(try isbns(context, nil, sortBy: [.descending(\.$isbn, .numericText)]) == ["100", "10", "9", "2"])
        #expect(try isbns(context, nil, sortBy: [.descending(\.$pages), .ascending(\.$isbn, .numericText)]) == ["9", "10", "100", "2"])
        #expect(try isbns(context, nil, sortBy: [.ascending(\.$pages), .descending(\.$isbn, .numericText)]) == ["2", "100", "10", "9"])
        #expect(try context.all(Author.self, sortBy: [.descending(\.$country), .ascending(\.$name)]).map(\.name) == ["Cy", "Ana", "Bo"])
        let titles = try context.fetch(FetchRequest<Book>(sortBy: [.ascending(\.$title, .caseInsensitive)])).map(\.title)
        // Folded keys: "ecole" < "stray" < "école" (é sorts after ASCII); ties by bytes: "ÉCOLE" < "école".
        let expected: [String] = ["Ecole", "Stray", "ÉCOLE", "école"]
        #expect(titles == expected)
    }

    @Test(arguments: [Location.file, .postgres])
    func limitOffsetAndCount(_ location: Location) throws {
        let (store, context) = try Self.makeStore(location)
        defer { withExtendedLifetime(store) {} }
        let sort: [FetchSort<Book>] = [.ascending(\.$isbn, .numericText)]
        #expect(try context.fetch(FetchRequest(sortBy: sort, limit: 2)).map(\.isbn) == ["2", "9"])
        #expect(try context.fetch(FetchRequest(sortBy: sort, limit: 2, offset: 1)).map(\.isbn) == ["9", "10"])
        #expect(try context.fetch(FetchRequest(sortBy: sort, offset: 3)).map(\.isbn) == ["100"])
        #expect(try context.fetch(FetchRequest(sortBy: sort, limit: 0)).isEmpty)
        #expect(try context.count(FetchRequest<Book>()) == 4)
        #expect(try context.count(FetchRequest<Book>(predicate: \.$pages == 120)) == 2)
        #expect(try context.count(FetchRequest<Book>(limit: 3, offset: 2)) == 2)
        #expect(try context.count(FetchRequest<Book>(predicate: .isIn(\.$pages, []))) == 0)
    }

    @Test(arguments: [Location.file, .postgres])
    func prefetchingResolvesToOnes(_ location: Location) throws {
        let (store, context) = try Self.makeStore(location)
        defer { withExtendedLifetime(store) {} }
        let books = try context.fetch(FetchRequest<Book>(predicate: !.isNil(\.$author), sortBy: [.ascending(\.$isbn, .numericText)]).prefetching(\.$author))
        #expect(books.map { $0.author?.name } == ["Bo", "Ana", "Ana"])
        #expect(books[1].author === books[2].author)
    }

    @Test(arguments: [Location.file, .postgres])
    func hostileValuesRoundTripByteForByte(_ location: Location) throws {
        let store = try TestStore(location)
        let hostile = [
            "Robert'); DROP TABLE Book;--",
            "\"quoted\" 'single' `back` \\ ?1 ?2 $x :y @z",
            "100% _under_ [brackets] *star*",
            "line\nbreak\ttab 🙂 e\u{301} ÉCOLE",
            "x' OR '1'='1",
        ]
        do {
            let context = try store.open().newContext()
            for (index, text) in hostile.enumerated() {
                let book = context.insert(Book.self)
                book.isbn = "\(index)"
                book.title = text
                let author = context.insert(Author.self)
                author.name = text
                book.author = author
            }
            try context.save()
        }
        let context = try store.reader()
        let books = try context.fetch(FetchRequest<Book>(sortBy: [.ascending(\.$isbn)]))
        #expect(books.map(\.title) == hostile)
        #expect(books.map { Array($0.title.utf8) } == hostile.map { Array($0.utf8) })
        #expect(books.map { $0.author?.name } == hostile)
        for (index, text) in hostile.enumerated() {
            #expect(try isbns(context, \.$title == text) == ["\(index)"])
            #expect(try isbns(context, .contains(\.$title, text, caseInsensitive: true)) == ["\(index)"])
            #expect(try isbns(context, .whose(\.$author, \.$name == text)) == ["\(index)"])
        }
        #expect(try context.count(FetchRequest<Book>()) == hostile.count)
    }
}
