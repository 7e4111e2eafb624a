import Foundation

/// What `verify` found: each recorded file re-read and hashed, and the files no photo owns.
struct FolderCheck: Sendable, Equatable, Encodable {
    var checked = 0
    var ok = 0
    /// Photo ids whose recorded file is not in the folder.
    var missing: [String] = []
    /// Photo ids whose file differs from the record (size or sha256).
    var corrupt: [String] = []
    /// Absolute paths of files in the folder that no photo owns (transfers' temporary `.part`
    /// files excepted: the next download reuses them).
    var orphans: [String] = []

    var isClean: Bool { missing.isEmpty && corrupt.isEmpty && orphans.isEmpty }

    /// Checks `folder` against `files` (by photo id).
    static func run(_ files: [String: VerifiedFile], folder: String) -> FolderCheck {
        var check = FolderCheck()
        for (id, file) in files.sorted(by: { $0.key < $1.key }) {
            check.checked += 1
            switch matches(file, at: folder + "/" + file.path) {
            case nil: check.missing.append(id)
            case false?: check.corrupt.append(id)
            case true?: check.ok += 1
            }
        }
        let owned = Set(files.values.map(\.path))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        check.orphans = names.filter { !owned.contains($0) && !$0.hasPrefix(FileLayout.temporaryPrefix) }.sorted().map { folder + "/" + $0 }
        return check
    }

    /// nil when there is no file; whether size and sha256 match otherwise.
    private static func matches(_ file: VerifiedFile, at path: String) -> Bool? {
        guard let size = Catalog.sizeOnDisk(path) else { return nil }
        guard size == file.size else { return false }
        return sha256(of: path) == file.sha256
    }

    /// Streams the file through SHA-256 in 1 MiB reads.
    static func sha256(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var hash = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return hash.finish() }
            buffer.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }
}
