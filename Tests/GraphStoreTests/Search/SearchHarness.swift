import Foundation
@testable import GraphStore
import PhotoSyncTestSupport
import Testing

/// Pictures with random titles, and searches run with and without a ``SearchIndex``.
struct SearchHarness {
    let container: PersistentContainer
    var file = FileManager.default.temporaryDirectory.appendingPathComponent("search-\(UUID().uuidString).sqlite").path

    func index() -> SearchIndex<Picture> { SearchIndex([\Picture.$title], of: container, file: file, candidateLimit: 200) }

    func remove() { try? FileManager.default.removeItem(atPath: file) }

    static func title(_ random: inout SeededRandom) -> String {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in random.pick(SearchIndexTests.words) }.joined(separator: random.pick([" ", "-", ""]))
    }

    func insert(_ count: Int, _ random: inout SeededRandom) throws {
        let context = container.newContext()
        for _ in 0..<count {
            let picture = context.insert(Picture.self)
            (picture.code, picture.title, picture.rating) = (String(random.next(), radix: 16), Self.title(&random), Int.random(in: 0...9, using: &random))
        }
        try context.save()
    }

    func editTitles(_ count: Int, _ random: inout SeededRandom) throws {
        let context = container.newContext()
        let pictures = try context.fetch(FetchRequest<Picture>(sortBy: [.ascending(\.$code)]))
        for _ in 0..<count { random.pick(pictures).title = Self.title(&random) }
        try context.save()
    }

    func deleteSome(_ count: Int, _ random: inout SeededRandom) throws {
        let context = container.newContext()
        let pictures = try context.fetch(FetchRequest<Picture>(sortBy: [.ascending(\.$code)]))
        for picture in pictures.shuffled(using: &random).prefix(count - 1) { context.delete(picture) }
        if let top = try context.fetch(FetchRequest<Picture>()).max(by: { $0.objectID.rowID! < $1.objectID.rowID! }) { context.delete(top) }
        try context.save()
    }

    /// For needles cut from the titles (in other cases) and a few others: the narrowed search's
    /// rows, in order and as a limited page, are the scan's; `narrowing` says whether the index
    /// must have narrowed the needles of three characters or more.
    func expectScanEquality(_ index: SearchIndex<Picture>, _ random: inout SeededRandom, narrowing: Bool) throws {
        let titles = try container.newContext().fetch(FetchRequest<Picture>()).map(\.title)
        // FTS5's query syntax in needles is text; NUL (which PostgreSQL text cannot hold) is scanned.
        var needles = ["zzq", "ss", "é", "STRASSE", "日本の", "ΣΟΦ", "kelvin", "\"b", "x y", "ffi", "\"\"\"", "* OR NEAR(", "^ab"]
        if (try? search(nil, "ca\0fé")) != nil { needles.append("ca\0fé") }
        for _ in 0..<30 {
            let scalars = Array(random.pick(titles).unicodeScalars)
            let length = min(scalars.count, Int.random(in: 3...6, using: &random))
            let start = Int.random(in: 0...(scalars.count - length), using: &random)
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[start..<start + length])
            needles.append(random.chance(0.5) ? String(view).uppercased() : String(view))
        }
        for needle in needles {
            let scan = try search(nil, needle)
            let narrowed = try search(index, needle)
            #expect(narrowed.codes == scan.codes, "\(needle.debugDescription)")
            #expect(try search(index, needle, limit: 5).codes == Array(scan.codes.prefix(5)), "\(needle.debugDescription) page")
            if narrowing && FoldFunction.fold(needle).unicodeScalars.count >= 3 && !needle.contains("\0") {
                #expect(narrowed.narrowed || scan.codes.count > 150, "\(needle.debugDescription) was not narrowed")
            }
        }
    }

    func search(_ index: SearchIndex<Picture>?, _ needle: String, limit: Int? = nil) throws -> (codes: [String], narrowed: Bool) {
        let context = container.newContext()
        return try context.readingOneSnapshot {
            var predicate: FetchPredicate<Picture> = .contains(\.$title, needle, caseInsensitive: true)
            let candidates = try index.flatMap { try context.searchCandidates($0, containing: needle) }
            if let candidates { predicate = candidates && predicate }
            let request = FetchRequest<Picture>(predicate: predicate, sortBy: [.descending(\.$rating), .ascending(\.$code)], limit: limit)
            return (try context.fetchColumns(request, [\.$code]).values(\.$code), candidates != nil)
        }
    }
}
