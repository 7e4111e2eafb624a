import Foundation

/// A `/files/...` request mapped to a file under the files folder, or nil (a 404): `..`, `.`,
/// encoded slashes and dots, NUL, dot names (unfinished downloads), absolute paths and symlinks
/// that lead out of the folder never reach a file outside it.
enum FilePath {
    /// `rest` is the request path after `/files/`, still percent-encoded.
    static func resolve(_ rest: Substring, under folder: String) -> String? {
        var segments: [String] = []
        for raw in rest.split(separator: "/", omittingEmptySubsequences: false) {
            guard let segment = String(raw).removingPercentEncoding, !segment.isEmpty, !segment.hasPrefix("."),
                  !segment.contains("/"), !segment.contains("\0"), !segment.contains("\\") else { return nil }
            segments.append(segment)
        }
        guard !segments.isEmpty, let root = realPath(folder), let real = realPath(folder + "/" + segments.joined(separator: "/")),
              real.hasPrefix(root == "/" ? "/" : root + "/") else { return nil }
        var info = stat()
        guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return real
    }

    /// The path with every symlink resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The Content-Type of a downloaded image, from the extension photosync gave it.
    static func contentType(_ path: String) -> String {
        let ext = (path as NSString).pathExtension.lowercased()
        return ImageType.allCases.first { $0.fileExtension == ext }?.contentType ?? "application/octet-stream"
    }
}
