import Foundation

/// A verified image still under its temporary name, its descriptor still open so that fsync
/// reports any error in writing it back to the disk, its sha256 perhaps still being computed.
struct VerifiedTemporary: Sendable {
    let descriptor: Int32
    let temporaryPath: String
    let digest: StreamDigest
    /// What the catalog records once the file is final, but its sha256; `path` is its final name.
    let hashless: VerifiedFile

    /// What the catalog records, once the last bytes are hashed (waits for them).
    var file: VerifiedFile {
        var file = hashless
        file.sha256 = digest.value
        return file
    }
}

/// How one transfer ended on the thread driving the transfers: settled, or verified and waiting
/// for `FileKeeper` to make it final.
enum TransferEnd: Sendable {
    case settled(DownloadOutcome)
    case verified(VerifiedTemporary)
}

/// Makes verified temporary files final, a batch at a time, off the transfers' thread: fsync them
/// (together: `ParallelSync`), rename each, then fsync the folder once. A file is renamed only once
/// its bytes are on disk, and the batch reaches the catalog only once the renames are (so a crash
/// never leaves a row without its file). An fsync per file on the transfers' thread made
/// downloads five times slower than curl's unsynced ones; batches off that thread, with the
/// journal committed for many files at once, keep them close.
enum FileKeeper {
    /// The outcome of each file, in order: downloaded, or why not (its temporary file removed).
    static func keep(_ files: [VerifiedTemporary], in folder: String) -> [DownloadOutcome] {
        // All of the batch's writes queued at once, then waited for one by one.
        for file in files { Writeback.start(file.descriptor) }
        let errors = ParallelSync.fsync(files.map(\.descriptor))
        var outcomes = zip(files, errors).map { file, error -> DownloadOutcome in
            defer { close(file.descriptor) }
            guard error == 0 else {
                let failure = FileFailure(errno: error, path: file.temporaryPath)
                unlink(file.temporaryPath)
                return failure.isNoSpace ? .noSpace(failure.message) : .failed(failure.message)
            }
            return .downloaded(file.file)
        }
        for (index, file) in files.enumerated() where outcomes[index].isDownloaded {
            guard rename(file.temporaryPath, folder + "/" + file.hashless.path) != 0 else { continue }
            outcomes[index] = .failed("cannot rename to \(folder)/\(file.hashless.path): \(String(cString: strerror(errno)))")
            unlink(file.temporaryPath)
        }
        if outcomes.contains(where: \.isDownloaded) { syncFolder(folder) }
        return outcomes
    }

    /// Closes the descriptors of files that will not be kept (the run failed before keeping them);
    /// their temporary files stay, to be downloaded again.
    static func abandon(_ files: [VerifiedTemporary]) {
        for file in files { close(file.descriptor) }
    }

    /// A rename is durable only once its folder is synced.
    static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}

extension DownloadOutcome {
    var isDownloaded: Bool { if case .downloaded = self { true } else { false } }
}
