import Foundation
import GraphStore

// The code sample of SearchingText.md, compiled (see GettingStartedSamples.swift).

struct SearchIndexSample {
    typealias Photo = PersistentHistoryModelSample.Photo
    let container: PersistentContainer
    let cacheFolder: String

    func search(_ text: String) throws -> [Photo] { // scaffold
        // doc: SearchingText.md #1
        let index = SearchIndex([\Photo.$title], of: container, file: cacheFolder + "/photos.search")
        try index.prepare()  // builds the file, or reopens it when it is still this store's

        let context = container.newContext()
        let page = try context.readingOneSnapshot {
            var match: FetchPredicate<Photo> = .contains(\.$title, text, caseInsensitive: true)
            if let candidates = try context.searchCandidates(index, containing: text) {
                match = candidates && match
            }
            return try context.fetch(FetchRequest(predicate: match, sortBy: [.descending(\.$views)], limit: 24))
        }
        // end doc
        return page // scaffold
    } // scaffold
}
