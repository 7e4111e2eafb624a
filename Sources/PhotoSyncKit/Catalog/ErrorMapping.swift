import Foundation
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

    /// A feed or network failure while fetching `page`: 69 in general, 65 for unusable data, 66 for
    /// a missing `file://` feed, 75 when the API asks for a long wait, 77 when it refuses the key
    /// (Flickr's code 100), whose origin `keySource` names (never the key itself).
    static func from(_ error: any Error, page: Int, keySource: String) -> PhotoSyncError {
        switch error {
        case HTTPError.fileUnreadable(let reason): .noInput("page \(page): \(reason)")
        case HTTPError.notAttempted(let reason): .tryLater("page \(page): \(reason)")
        case HTTPError.retryLater(let seconds): .tryLater(retryLaterMessage(page: page, seconds: seconds))
        case let error as HTTPError: .network("page \(page): \(error) (check --url, the network, and the API's status)")
        case FeedError.api(100, let message):
            .permission("page \(page): the API refused the key from \(keySource) (error 100: \(message)); check it, or get a new key")
        case FeedError.api(let code, let message): .network("page \(page): API error \(code): \(message)")
        case FeedError.malformed(let reason): .badFeed("page \(page): \(reason)")
        case let error as PhotoSyncError: error
        default: .network("page \(page): \(error)")
        }
    }

    private static func retryLaterMessage(page: Int, seconds: Double) -> String {
        let until = Date(timeIntervalSinceNow: seconds.rounded(.up))
        return "page \(page): the API asks to wait \(Int(seconds.rounded(.up))) s (until \(timestamp(until))); "
            + "pages so far are saved: run again then, or pass --wait to wait"
    }
}
