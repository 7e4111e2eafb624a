import Foundation

/// A throw-away catalog in a private temporary folder, for `fetch --dry-run` where no catalog
/// exists: the dry run is the real run (same counts, same errors) but must create nothing at the
/// path it was given. The folder and everything in it go when this is released.
final class ScratchCatalog {
    let folder: String
    var path: String { folder + "/catalog.sqlite" }

    init() throws(PhotoSyncError) {
        var template = Array((NSTemporaryDirectory() + "/photosync-dry-run-XXXXXX").utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw .catalog("cannot create a temporary catalog for the dry run: \(String(cString: strerror(errno)))")
        }
        folder = String(cString: created)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }
}
