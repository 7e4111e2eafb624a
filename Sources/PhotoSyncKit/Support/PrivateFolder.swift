import Foundation

/// Folders photosync creates (the catalog's, the log file's): mode 0700 whatever the umask, since
/// they hold a private catalog and logs. Existing folders are left as they are.
enum PrivateFolder {
    /// Creates `path` and any missing parent, each with mode 0700.
    static func create(_ path: String) throws(PhotoSyncError) {
        guard !path.isEmpty, !isDirectory(path) else { return }
        let parent = (path as NSString).deletingLastPathComponent
        if parent != path { try create(parent) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw .catalog("cannot create directory \(path): \(String(cString: strerror(errno)))")
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
