import Foundation
import GraphStore

extension Catalog {
    /// The unfinished part of `source`'s cut walk, if one is pending.
    func backfill(of source: String) throws -> Backfill? {
        try withContext { context in
            try context.fetch(FetchRequest<SourceBackfill>(predicate: \.$source == source, limit: 1)).first.map {
                Backfill(offset: $0.offset, total: $0.total, anchorID: $0.anchorID, anchorUploaded: $0.anchorUploaded, floor: $0.floor, began: $0.began)
            }
        }
    }

    /// Records where `source`'s catch up stands, or that the source is complete (nil). Saved after
    /// the page it follows: a run killed between the two walks that page again, nothing worse.
    func recordBackfill(_ backfill: Backfill?, of source: String) throws {
        try withContext { context in
            let stored = try context.fetch(FetchRequest<SourceBackfill>(predicate: \.$source == source, limit: 1)).first
            guard let backfill else {
                if let stored { context.delete(stored) }
                return try context.save()
            }
            let row = stored ?? context.insert(SourceBackfill.self)
            (row.source, row.offset, row.anchorID, row.anchorUploaded) = (source, backfill.offset, backfill.anchorID, backfill.anchorUploaded)
            (row.floor, row.began, row.total) = (backfill.floor, backfill.began, backfill.total)
            try context.save()
        }
    }
}
