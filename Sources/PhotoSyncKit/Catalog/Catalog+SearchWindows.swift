import Foundation
import GraphStore

extension Catalog {
    /// The windows of `source`'s search walked to their end by earlier fetches.
    func completedWindows(of source: String) throws -> [UploadWindow] {
        try withContext { context in
            try context.fetch(FetchRequest<SearchWindow>(predicate: \.$source == source)).map { UploadWindow(from: $0.from, to: $0.to) }
        }
    }

    /// Records `window` of `source` as walked to its end (after its last page was saved).
    func recordCompleted(_ window: UploadWindow, of source: String) throws {
        try withContext { context in
            let row = context.insert(SearchWindow.self)
            (row.source, row.from, row.to) = (source, window.from, window.to)
            try context.save()
        }
    }
}
