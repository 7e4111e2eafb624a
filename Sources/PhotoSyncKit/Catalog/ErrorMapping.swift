import Foundation
import GraphStore
import PhotoFeed

extension PhotoSyncError {
    /// A store failure as the catalog reports it (74, or 65 for merge conflicts, 71 out of memory).
    /// A write that failed for want of space, inodes or file size says so (see `StorageShortage`).
    static func from(_ error: GraphStoreError, path: String) -> PhotoSyncError {
        if error.mayBeStorageShortage, let shortage = StorageShortage.at(path) { return .catalog(shortage.message(writing: path)) }
        if error.isOutOfMemory {
            return .outOfMemory("out of memory using catalog \(path)\(ResourceLimits.addressSpaceNote.map { ": \($0): raise the limit" } ?? "")")
        }
        switch error {
        case .constraintConflicts(let conflicts):
            let listed = conflicts.prefix(10).map { conflict in
                "\(conflict.entity == "Photo" ? "photo" : "photographer") \(conflict.values.joined(separator: "/"))"
            }
            return .conflict("merge conflict under the error policy: \(listed.joined(separator: ", ")) (\(conflicts.count) in total); nothing from this page was saved")
        case .storeUnavailable(_, let reason, _): return .catalog("cannot open catalog \(path): \(reason)")
        case .lockFailed(_, let opening, let reason, let kind):
            if opening && kind == .diskFull, let shortage = StorageShortage.at(path) { return .catalog(shortage.message(writing: path)) }
            return .catalog("cannot \(opening ? "open" : "lock") \(path): \(reason)")
        case .hardLinked(_, let links): return .catalog(hardLinkProblem(path, links))
        case .incompatibleStore(let reason): return .catalog("cannot use catalog \(path): \(reason)")
        default: return .catalog("catalog \(path): \(error)")
        }
    }

    /// A feed or network failure while fetching `page`: 69 in general, 65 for unusable data, 66 for
    /// a missing `file://` feed, 75 when the API asks for a long wait, 77 when it refuses the key
    /// (Flickr's code 100), whose origin `keySource` names (never the key itself).
    static func from(_ error: any Error, page: Int, keySource: String) -> PhotoSyncError {
        from(error, about: "page \(page)", keySource: keySource)
    }

    /// As for a page, `what` (`page 3`, `photo 51234`) naming the call in the message.
    static func from(_ error: any Error, about what: String, keySource: String) -> PhotoSyncError {
        switch error {
        case HTTPError.fileUnreadable(let reason): .noInput("\(what): \(reason)")
        case HTTPError.notAttempted(let reason): .tryLater("\(what): \(reason)")
        case HTTPError.retryLater(let seconds): .tryLater(retryLaterMessage(what, seconds: seconds))
        case let error as HTTPError where error.isOutOfMemory:
            .outOfMemory("out of memory: \(what): \(error)\(ResourceLimits.addressSpaceNote.map { "; \($0): raise the limit" } ?? "")")
        case let error as HTTPError where error.isOversizedResponse:
            .network("\(what): the server sent a response libcurl cannot hold (a header over its 100 KB limit); check the API's status")
        case let error as HTTPError: .network("\(what): \(error) (check --url, the network, and the API's status)")
        case FeedError.api(100, let message):
            .permission("\(what): the API refused the key from \(keySource) (error 100: \(message)); check it, or get a new key")
        case FeedError.api(let code, let message): .network("\(what): API error \(code): \(message)")
        case FeedError.malformed(let reason): .badFeed("\(what): \(reason)")
        case let error as PhotoSyncError: error
        default: .network("\(what): \(error)")
        }
    }

    /// The message for a catalog reached through several hard links.
    static func hardLinkProblem(_ path: String, _ links: Int) -> String {
        "\(path) has \(links) hard links; SQLite keeps its write-ahead log per name, so several names corrupt one catalog: keep one name (a symlink is safe)"
    }

    private static func retryLaterMessage(_ what: String, seconds: Double) -> String {
        let until = Date(timeIntervalSinceNow: seconds.rounded(.up))
        return "\(what): the API asks to wait \(Int(seconds.rounded(.up))) s (until \(timestamp(until))); "
            + "pages so far are saved: run again then, or pass --wait to wait"
    }
}

extension GraphStoreError {
    /// A full disk, an I/O error, or a file the store could not open or create: what a full disk,
    /// no free inode or `ulimit -f` produce. (A lock's file is judged where its message is made.)
    fileprivate var mayBeStorageShortage: Bool {
        if case .lockFailed = self { return false }
        return [.diskFull, .ioError, .cannotOpen].contains(failureKind)
    }

    /// This process could not allocate memory.
    fileprivate var isOutOfMemory: Bool {
        if case .lockFailed = self { return false }
        return failureKind == .outOfMemory
    }
}

extension HTTPError {
    /// libcurl out of memory (27), or unable to load at all (2), under an address-space limit.
    /// Without one, Linux does not refuse memory this way: libcurl says 27 for a response header
    /// over its 100 KB limit too, and that is the server's fault (69).
    fileprivate var isOutOfMemory: Bool {
        guard case .transport(let code, _) = self else { return false }
        return (code == 27 || code == 2) && ResourceLimits.addressSpace != nil
    }

    /// libcurl's 27 where memory was not short: a response it could not hold.
    fileprivate var isOversizedResponse: Bool {
        guard case .transport(27, _) = self else { return false }
        return !isOutOfMemory
    }
}
