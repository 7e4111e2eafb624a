import Foundation
import GraphStore
import PhotoFeed
import Testing
@testable import PhotoSyncKit

/// PageImporter against a real catalog file: what a page changes, and that photos the catalog
/// already holds exactly are left out without changing any outcome.
@Suite("Importing pages")
struct PageImporterTests {
    static func photo(_ id: String, by owner: String, ownerID: String? = nil, title: String = "T", uploaded: Double? = 1_700_000_000) -> FeedPhoto {
        FeedPhoto(id: id, title: title, subtitle: "", imageURL: "https://example.test/\(id).jpg",
                  uploaded: uploaded.map(Date.init(timeIntervalSince1970:)), ownerID: ownerID ?? "\(owner)@N01", ownerName: owner)
    }

    static func page(_ photos: [FeedPhoto]) -> FeedPage {
        FeedPage(page: 1, pages: 1, perPage: photos.count, total: photos.count, photos: photos)
    }

    /// A new catalog file; `importer(policy)` imports into it, `read()` reopens it.
    struct Fixture {
        let path: String
        init() throws { path = try makeTemporaryDirectory() + "/catalog.sqlite" }
        func importer(_ policy: MergePolicy = .objectTrump) throws -> PageImporter {
            PageImporter(container: try Catalog(path: path).container, policy: policy)
        }
        func stored() throws -> [String: (title: String, owner: String?, ownerID: String?)] {
            let context = try Catalog(path: path).container.newContext()
            let photos = try context.fetch(FetchRequest<Photo>())
            return Dictionary(uniqueKeysWithValues: photos.map { ($0.unique, ($0.title, $0.whoTook?.name, $0.whoTook?.ownerID)) })
        }
        /// Every stored row as text, row ids included.
        func rows() throws -> [String] {
            let context = try Catalog(path: path).container.newContext()
            let photos = try context.fetch(FetchRequest<Photo>()).map { photo in
                "\(photo.objectID) \(photo.unique) \(photo.title) \(photo.subtitle) \(photo.imageURL) \(String(describing: photo.uploaded)) \(String(describing: photo.whoTook?.objectID))"
            }
            let people = try context.fetch(FetchRequest<Photographer>()).map { "\($0.objectID) \($0.name) \($0.ownerID)" }
            return (photos + people).sorted()
        }
        func photographers() throws -> [String: String] {
            let context = try Catalog(path: path).container.newContext()
            return Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest<Photographer>()).map { ($0.name, $0.ownerID) })
        }
    }

    static let first = [photo("1", by: "Ana"), photo("2", by: "Ana"), photo("3", by: "Bo", uploaded: nil)]

    @Test(arguments: [MergePolicy.objectTrump, .storeTrump])
    func anUnchangedPageChangesNothing(_ policy: MergePolicy) throws {
        let catalog = try Fixture()
        #expect(try catalog.importer().importPage(Self.page(Self.first)).inserted == 3)
        let before = try catalog.rows()
        #expect(before.count == 5)
        #expect(StoredCopies.unchangedIDs(Self.page(Self.first), in: try catalog.importer().container) == ["1", "2", "3"])
        let again = try catalog.importer(policy).importPage(Self.page(Self.first))
        #expect(again.unchanged == 3 && again.inserted == 0 && again.updated == 0 && again.photographersInserted == 0)
        #expect(try catalog.rows() == before)
    }

    @Test func aChangedPhotoIsUpdatedAndTheRestLeftOut() throws {
        let catalog = try Fixture()
        _ = try catalog.importer().importPage(Self.page(Self.first))
        let changed = [Self.first[0], Self.photo("2", by: "Ana", title: "New"), Self.first[2], Self.photo("4", by: "Cy")]
        #expect(StoredCopies.unchangedIDs(Self.page(changed), in: try catalog.importer().container) == ["1", "3"])
        let summary = try catalog.importer().importPage(Self.page(changed))
        #expect(summary.inserted == 1 && summary.updated == 1 && summary.unchanged == 2 && summary.photographersInserted == 1)
        let stored = try catalog.stored()
        #expect(stored["2"]?.title == "New" && stored["1"]?.title == "T" && stored["4"]?.owner == "Cy")
    }

    /// A photo moved to another photographer is not "unchanged"; the emptied photographer goes.
    @Test func aPhotoMovedToAnotherPhotographerIsNotLeftOut() throws {
        let catalog = try Fixture()
        _ = try catalog.importer().importPage(Self.page(Self.first))
        let moved = [Self.photo("3", by: "Ana")]
        #expect(StoredCopies.unchangedIDs(Self.page(moved), in: try catalog.importer().container).isEmpty)
        let summary = try catalog.importer().importPage(Self.page(moved))
        #expect(summary.updated == 1 && summary.photographersRemoved == 1)
        #expect(try catalog.photographers() == ["Ana": "Ana@N01"])
    }

    /// Only the owner id changed: the photo is left out, its photographer is not; object-trump
    /// takes the page's owner id, store-trump keeps the stored one.
    @Test(arguments: [(MergePolicy.objectTrump, "new@N01"), (.storeTrump, "Ana@N01")])
    func aChangedOwnerIDFollowsThePolicy(_ policy: MergePolicy, _ expected: String) throws {
        let catalog = try Fixture()
        _ = try catalog.importer().importPage(Self.page(Self.first))
        let page = Self.page([Self.photo("1", by: "Ana", ownerID: "new@N01"), Self.photo("3", by: "Bo")])
        #expect(StoredCopies.unchangedIDs(page, in: try catalog.importer().container) == ["1"])
        #expect(StoredCopies.currentNames(page, in: try catalog.importer().container) == ["Bo"])
        _ = try catalog.importer(policy).importPage(page)
        #expect(try catalog.photographers()["Ana"] == expected)
    }

    /// The owner id of a name is its first photo's in the page, even when that photo is unchanged.
    @Test func thePagesFirstOwnerIDWinsEvenWhenItsPhotoIsLeftOut() throws {
        let catalog = try Fixture()
        _ = try catalog.importer().importPage(Self.page(Self.first))
        let page = Self.page([Self.first[0], Self.photo("5", by: "Ana", ownerID: "other@N01")])
        _ = try catalog.importer().importPage(page)
        #expect(try catalog.photographers()["Ana"] == "Ana@N01")
        #expect(try catalog.stored()["5"]?.owner == "Ana")
    }

    /// Store-trump leaves out every stored photo and photographer: the stored values win anyway.
    @Test func storeTrumpLeavesOutWhateverIsStored() throws {
        let catalog = try Fixture()
        _ = try catalog.importer().importPage(Self.page(Self.first))
        let before = try catalog.rows()
        let page = Self.page([Self.photo("1", by: "Ana", ownerID: "new@N01", title: "Other"), Self.photo("3", by: "Ana"), Self.photo("7", by: "Eve")])
        #expect(StoredCopies.unchangedIDs(page, .storeTrump, in: try catalog.importer().container) == ["1", "3"])
        #expect(StoredCopies.currentNames(page, .storeTrump, in: try catalog.importer().container) == ["Ana"])
        let summary = try catalog.importer(.storeTrump).importPage(page)
        #expect(summary.inserted == 1 && summary.updated == 0 && summary.unchanged == 2)
        let after = try catalog.rows()
        #expect(before.allSatisfy(after.contains), "every stored row is kept as it was")
        #expect(try catalog.stored()["7"]?.owner == "Eve")
    }

    /// The error policy leaves nothing out: a stored photo, even identical, is a conflict.
    @Test func theErrorPolicyReportsEvenAnIdenticalStoredPhoto() throws {
        let catalog = try Fixture()
        _ = try catalog.importer().importPage(Self.page(Self.first))
        #expect(StoredCopies.unchangedIDs(Self.page(Self.first), .error, in: try catalog.importer().container).isEmpty)
        #expect(throws: GraphStoreError.self) { try catalog.importer(.error).importPage(Self.page(Self.first)) }
    }

    /// An id twice in a page is never left out: object-trump keeps its last version even when
    /// the first is the stored one.
    @Test func anIDTwiceInAPageIsDecidedByTheMergePolicy() throws {
        let catalog = try Fixture()
        _ = try catalog.importer().importPage(Self.page(Self.first))
        let page = Self.page([Self.first[0], Self.photo("1", by: "Ana", title: "Later")])
        #expect(StoredCopies.unchangedIDs(page, in: try catalog.importer().container).isEmpty)
        _ = try catalog.importer().importPage(page)
        #expect(try catalog.stored()["1"]?.title == "Later")
    }

    /// A page's keys: each name's first owner id; positions of the ids that occur once.
    @Test func pageKeys() {
        let page = Self.page([Self.photo("1", by: "Ana", ownerID: "a1"), Self.photo("2", by: "Bo"), Self.photo("1", by: "Ana", ownerID: "a2"),
                              Self.photo("3", by: "Ana", ownerID: "a3")])
        let keys = PageKeys(page)
        #expect(keys.names == ["Ana", "Bo"])
        #expect(keys.ownerIDs == ["a1", "Bo@N01"])
        #expect(keys.owners == [0, 1, 0, 0])
        #expect(keys.positions == ["2": 1, "3": 3])
    }

    /// Names that differ only in Unicode normalization are two photographers, as the catalog's
    /// unique index sees them (Swift's String equality would merge them), in one page or across two.
    @Test func canonicallyEquivalentNamesAreTwoPhotographers() throws {
        let (composed, decomposed) = ("Jos\u{E9}", "Jose\u{301}")
        let catalog = try Fixture()
        let summary = try catalog.importer().importPage(Self.page([Self.photo("1", by: composed, ownerID: "c@N01"),
                                                                    Self.photo("2", by: decomposed, ownerID: "d@N01")]))
        #expect(summary.photographersInserted == 2)
        let again = try catalog.importer().importPage(Self.page([Self.photo("3", by: decomposed, ownerID: "d@N01")]))
        #expect(again.photographersInserted == 0)
        let context = try Catalog(path: catalog.path).container.newContext()
        let owners = try context.fetch(FetchRequest<Photo>()).map { ($0.unique, Array(($0.whoTook?.ownerID ?? "").utf8)) }
        #expect(Dictionary(uniqueKeysWithValues: owners) == ["1": Array("c@N01".utf8), "2": Array("d@N01".utf8), "3": Array("d@N01".utf8)])
        #expect(try context.fetch(FetchRequest<Photographer>()).count == 2)
    }

    /// A title that only changes its Unicode normalization is a change: object-trump writes the
    /// page's bytes (the catalog compares bytes, not canonical equivalence).
    @Test func aTitleInAnotherNormalizationIsUpdated() throws {
        let catalog = try Fixture()
        _ = try catalog.importer().importPage(Self.page([Self.photo("1", by: "Ana", title: "Caf\u{E9}")]))
        let again = try catalog.importer().importPage(Self.page([Self.photo("1", by: "Ana", title: "Cafe\u{301}")]))
        #expect(again.updated == 1 && again.unchanged == 0)
        #expect(Array(try catalog.stored()["1"]!.title.utf8) == Array("Cafe\u{301}".utf8))
    }

    /// A page imported expecting new photos (no read of stored photos; the save assumes their ids
    /// absent) ends exactly as a page imported normally, even when the expectation is wrong: same
    /// counts, same rows, row ids included.
    @Test(arguments: [MergePolicy.objectTrump, .storeTrump])
    func expectingNewPhotosChangesNothingButTheWork(_ policy: MergePolicy) throws {
        let (usual, expecting) = (try Fixture(), try Fixture())
        for catalog in [usual, expecting] { _ = try catalog.importer().importPage(Self.page(Self.first)) }
        let page = Self.page([Self.first[0], Self.photo("2", by: "Ana", title: "Changed"), Self.photo("9", by: "Dee"),
                              Self.photo("8", by: "Bo", ownerID: "moved@N01")])
        let expected = try usual.importer(policy).importPage(page)
        let summary = try expecting.importer(policy).importPage(PreparedPage(page), expectingNewPhotos: true)
        #expect(summary == expected)
        #expect(try expecting.rows() == usual.rows())
        #expect(expected.inserted == 2 && expected.unchanged == (policy == .objectTrump ? 1 : 2))
    }

    /// Pages imported by one importer (which remembers the photographers of earlier pages) end
    /// exactly as pages each imported by a new importer (which reads them all): same counts, same
    /// rows, row ids included. The pages repeat names, change an owner id back and forth, empty a
    /// photographer (deleted) and bring the name back, and use NFC and NFD spellings of one name.
    @Test(arguments: [MergePolicy.objectTrump, .storeTrump])
    func rememberingPhotographersChangesNothingButTheWork(_ policy: MergePolicy) throws {
        let pages = [
            [Self.photo("1", by: "Ana"), Self.photo("2", by: "Bo"), Self.photo("3", by: "José")],
            [Self.photo("4", by: "Ana", ownerID: "other@N01"), Self.photo("5", by: "Jose\u{301}"), Self.photo("6", by: "Bo")],
            [Self.photo("2", by: "Ana"), Self.photo("6", by: "Ana"), Self.photo("7", by: "Ana", ownerID: "Ana@N01")],
            [Self.photo("8", by: "Bo"), Self.photo("9", by: "José"), Self.photo("10", by: "Cy")],
        ].map(Self.page)
        let (remembering, reading) = (try Fixture(), try Fixture())
        let importer = try remembering.importer(policy)
        for page in pages {
            #expect(try importer.importPage(page) == (try reading.importer(policy).importPage(page)))
        }
        #expect(try remembering.rows() == reading.rows())
        #expect(try remembering.rows().filter { $0.hasSuffix(" Bo Bo@N01") }.count == 1, "Bo, emptied on page 3, is back")
    }

    /// A photographer remembered from an earlier page and deleted (with its photos) by `delete`
    /// before the next page: that page still saves, inserting the photographer again.
    @Test func aRememberedPhotographerDeletedBetweenPagesIsReadAgain() throws {
        let catalog = try Fixture()
        let importer = try catalog.importer()
        _ = try importer.importPage(Self.page([Self.photo("1", by: "Ana"), Self.photo("2", by: "Bo")]))
        let report = try Catalog(path: catalog.path).delete(photoIDs: ["1"])
        #expect(report.photographersRemoved == ["Ana"])
        let summary = try importer.importPage(Self.page([Self.photo("3", by: "Ana"), Self.photo("4", by: "Bo")]))
        #expect(summary.inserted == 2 && summary.photographersInserted == 1)
        let stored = try catalog.stored()
        #expect(stored["3"]?.owner == "Ana" && stored["4"]?.owner == "Bo" && stored["1"] == nil)
    }

    /// A dry run reports the same counts and writes nothing.
    @Test func aDryRunCountsTheSameAndWritesNothing() throws {
        let catalog = try Fixture()
        _ = try catalog.importer().importPage(Self.page(Self.first))
        let page = Self.page([Self.first[0], Self.photo("2", by: "Ana", title: "New"), Self.photo("9", by: "Dee")])
        let before = try catalog.rows()
        let dry = try catalog.importer().importPage(page, dryRun: true)
        #expect(try catalog.rows() == before)
        let real = try catalog.importer().importPage(page)
        #expect(dry == real)
        #expect(real.unchanged == 1 && real.updated == 1 && real.inserted == 1)
    }
}

extension PageImporter {
    func importPage(_ page: FeedPage, dryRun: Bool = false) throws -> FetchSummary {
        try importPage(PreparedPage(page), dryRun: dryRun)
    }
}

extension StoredCopies {
    init(_ page: FeedPage, _ policy: MergePolicy, in container: PersistentContainer) throws {
        try self.init(of: page, keys: PageKeys(page), policy: policy, in: container.newContext())
    }

    /// The photo ids `importPage` would leave out of `page`.
    static func unchangedIDs(_ page: FeedPage, _ policy: MergePolicy = .objectTrump, in container: PersistentContainer) -> Set<String> {
        guard let stored = try? StoredCopies(page, policy, in: container) else { return ["error"] }
        return Set(zip(page.photos, stored.isStored).filter(\.1).map(\.0.id))
    }

    /// The photographer names `importPage` would leave out of `page`.
    static func currentNames(_ page: FeedPage, _ policy: MergePolicy = .objectTrump, in container: PersistentContainer) -> Set<String> {
        guard let stored = try? StoredCopies(page, policy, in: container) else { return ["error"] }
        let names = PageKeys(page).names
        return Set(names.indices.filter { stored.photographerRows[$0] != nil && !stored.isStale[$0] }.map { names[$0] })
    }
}
