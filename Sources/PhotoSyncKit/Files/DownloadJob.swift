/// One image to download: the photo, the size chosen from the preference list, and its URL (from
/// the untrusted feed: checked by the HTTP client, never used for the file's name).
struct DownloadJob: Sendable, Equatable {
    var photoID: String
    var sizeLabel: String
    var url: String
    /// Times the image was already refused (404, 403, 410, not an image): the back-off doubles.
    var refusals = 0
}

/// How one download ended.
enum DownloadOutcome: Sendable, Equatable {
    /// Verified and renamed to its final name.
    case downloaded(VerifiedFile)
    /// The server refused it for good (404, 410, 403), or sent something that is no image: the
    /// photo's state, remembered with a back-off. `status` is 0 when it was the content.
    case unavailable(status: Int, reason: String)
    /// Worth trying again next run (network, 5xx after retries, a short body).
    case failed(String)
    /// `--max-bytes` was reached during it.
    case stopped
    /// The files folder's disk is full.
    case noSpace(String)
    /// A resumed transfer found the server's copy changed: start again (never leaves ImageDownload).
    case restartNeeded
}

/// A file as verified on arrival: what the catalog keeps, and what `verify` checks it against.
struct VerifiedFile: Sendable, Equatable {
    /// Relative to the files folder.
    var path: String
    var size: Int
    var sha256: String
    var sizeLabel: String
    var contentType: String
}
