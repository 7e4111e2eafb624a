/// What `photosync download` did, for its summary and its exit status.
struct DownloadSummary: Sendable, Equatable, Encodable {
    var downloaded = 0
    var bytes = 0
    /// Already there, verified on an earlier run and still on disk (size checked).
    var present = 0
    /// In the unavailable state: refused by the server or not an image (this run or earlier).
    var unavailable = 0
    /// Transfers that failed this run and will be tried again.
    var failed = 0
    /// Still to download after the run: the failed, and those a limit kept from starting.
    var pending = 0

    /// Counts one finished download.
    mutating func count(_ outcome: DownloadOutcome) {
        switch outcome {
        case .downloaded(let file): (downloaded, bytes) = (downloaded + 1, bytes + file.size)
        case .unavailable: unavailable += 1
        case .failed: failed += 1
        case .stopped, .noSpace, .restartNeeded: break
        }
    }
}
