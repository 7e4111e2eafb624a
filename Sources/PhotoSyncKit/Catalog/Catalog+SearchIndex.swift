import Foundation
import GraphStore
import Synchronization

extension Catalog {
    /// Builds (or reopens) the trigram index of titles and subtitles at `file` and has searches
    /// use it from then on: GraphStore's ``SearchIndex``, outside the imports, which never pay for it.
    func prepareSearchIndex(file: String) throws(PhotoSyncError) -> SearchIndexReport {
        let index = searchIndex.withLock { index in
            if let index { return index }
            let made = SearchIndex([\Photo.$title, \Photo.$subtitle], of: container, file: file)
            index = made
            return made
        }
        do throws(GraphStoreError) {
            return try index.prepare()
        } catch {
            throw PhotoSyncError.from(error, path: file)
        }
    }

    /// Whether searches use the index now.
    var searchIndexIsReady: Bool { searchIndex.withLock { $0?.isReady ?? false } }

    /// `predicate` (`query`'s) with the search index's candidates for `query.search` added, read
    /// in `context`'s snapshot; unchanged without an index that can narrow. The rows found are
    /// the same either way: the candidates are still tested by the `contains` predicates.
    func narrowed(_ predicate: FetchPredicate<Photo>?, _ query: ListQuery, _ context: ObjectContext) throws -> FetchPredicate<Photo>? {
        guard let predicate, let text = query.search, let index = searchIndex.withLock({ $0 }),
            let candidates = try context.searchCandidates(index, containing: text)
        else { return predicate }
        return candidates && predicate
    }

    /// Where serve keeps the catalog's search index: the cache folder, one file per catalog (its
    /// real path, or its URL without password), never beside the catalog, which serve only reads.
    func searchIndexFile(in cacheFolder: String) -> String {
        let name = location.filePath.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path } ?? location.display
        // FNV-1a: a stable name, not a secret.
        let hash = name.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        return cacheFolder + "/search-" + String(hash, radix: 16) + ".sqlite"
    }
}
