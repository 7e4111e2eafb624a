import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// A case-insensitive `contains` finds exactly the rows whose folded text holds the folded needle,
/// byte for byte (`instr` of the two folds, the scan's definition), however SQLite computes it:
/// ASCII titles in place, the others folded.
@Suite(.onTestThreads) struct FoldContainsTests {
    static let titles = ["Straße", "STRASSE x", "GROẞ", "groß", "ſtraſſe", "\u{212A}elvin", "Kelvin", "oﬀice", "OFFICE",
                         "café", "cafe\u{301}", "CAFÉ", "ΣΟΦΌΣ", "σοφός", "ǅemal", "İstanbul", "x١٠", "",
                         "e\u{202E}vil", "👍🏽 ok", "A\u{200B}B", "MiXeD CaSe ascii", "tab\there", "日本の夜景"]
    static let needles = ["ss", "SS", "ß", "ẞ", "straß", "kelvin", "\u{212A}", "ff", "ﬀ", "FF", "é", "e\u{301}", "É", "e",
                          "σοφ", "ΣΟΦΌΣ", "ς", "ǆ", "DŽ", "i\u{307}stan", "İ", "", " ", "\u{202E}", "👍", "a\u{200B}b",
                          "mixed case", "ASCII", "x", "夜景", "zzqx", "\t"]

    /// The scan's answer: the folded needle's bytes in the folded title's bytes.
    static func expected(_ needle: String) -> [String] {
        let folded = Array(TextFolding.caseFolded(needle).utf8)
        return titles.filter { title in
            folded.isEmpty || Array(TextFolding.caseFolded(title).utf8).firstRange(of: folded) != nil
        }.sorted()
    }

    @Test(arguments: Location.allCases)
    func containsMatchesTheFoldedBytes(_ location: Location) throws {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        for (index, title) in Self.titles.enumerated() {
            let book = context.insert(Book.self)
            (book.isbn, book.title) = ("\(index)", title)
        }
        try context.save()
        let reader = try store.open().newContext()
        for needle in Self.needles {
            let found = try reader.fetch(FetchRequest<Book>(predicate: .contains(\.$title, needle, caseInsensitive: true))).map(\.title).sorted()
            #expect(found == Self.expected(needle), "\(needle.debugDescription)")
            let negated = try reader.count(FetchRequest<Book>(predicate: !.contains(\.$title, needle, caseInsensitive: true)))
            #expect(negated == Self.titles.count - found.count, "not \(needle.debugDescription)")
        }
    }
}
