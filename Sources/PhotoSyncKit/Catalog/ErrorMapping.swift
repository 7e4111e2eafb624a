import GraphStore
import PhotoFeed

extension PhotoSyncError {
    /// A store failure as the catalog reports it (74, or 65 for merge conflicts).
    static func from(_ error: GraphStoreError, path: String) -> PhotoSyncError {
        switch error {
        case .constraintConflicts(let conflicts):
            let listed = conflicts.prefix(10).map { conflict in
                "\(conflict.entity == "Photo" ? "photo" : "photographer") \(conflict.values.joined(separator: "/"))"
            }
            return .conflict("merge conflict under the error policy: \(listed.joined(separator: ", ")) (\(conflicts.count) in total); nothing from this page was saved")
        case .storeUnavailable(_, let reason): return .catalog("cannot open catalog \(path): \(reason)")
        case .incompatibleStore(let reason): return .catalog("cannot use catalog \(path): \(reason)")
        default: return .catalog("catalog \(path): \(error)")
        }
    }

    /// A feed or network failure while fetching `page` (69, or 65 for unusable data).
    static func from(_ error: any Error, page: Int) -> PhotoSyncError {
        switch error {
        case let error as HTTPError: .network("page \(page): \(error)")
        case FeedError.api(let code, let message): .network("page \(page): API error \(code): \(message)")
        case FeedError.malformed(let reason): .badFeed("page \(page): \(reason)")
        case let error as PhotoSyncError: error
        default: .network("page \(page): \(error)")
        }
    }
}
