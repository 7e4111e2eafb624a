import Foundation
import PhotoFeed

/// Writes one image transfer to its temporary file, hashing and checking it as it arrives, so a
/// file is never held in memory nor read again.
///
/// Bodies of error responses are ignored (the status decides). The transfer is stopped at the
/// first 12 bytes when they are no image signature (an HTML page served as `image/jpeg`), and at
/// the first failed write (a full disk): `failure` says which.
final class ImageReceiver: ResponseStream {
    enum Failure: Equatable {
        case notAnImage
        case write(Int32)
        case overBudget
    }

    let temporaryPath: String
    private let descriptor: Int32
    private let budget: ByteBudget
    private var hash = SHA256()
    private var prefix: [UInt8] = []
    private(set) var written = 0
    private(set) var type: ImageType?
    private(set) var failure: Failure?
    /// The final response's status and headers, as the body began.
    private(set) var status = 0
    private(set) var headers: [String: String] = [:]

    /// Opens (creating or emptying) `temporaryPath`, mode 0644.
    init(temporaryPath: String, budget: ByteBudget) throws(FileFailure) {
        self.temporaryPath = temporaryPath
        self.budget = budget
        descriptor = open(temporaryPath, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw FileFailure(errno: errno, path: temporaryPath) }
    }

    deinit { close(descriptor) }

    func restart() {
        ftruncate(descriptor, 0)
        lseek(descriptor, 0, SEEK_SET)
        (hash, prefix, written, type, failure, status, headers) = (SHA256(), [], 0, nil, nil, 0, [:])
    }

    func receive(_ chunk: UnsafeRawBufferPointer, status: Int, headers: [String: String]) -> Bool {
        (self.status, self.headers) = (status, headers)
        guard (200...299).contains(status) else { return true }
        guard budget.take(chunk.count) else { return stop(.overBudget) }
        if type == nil, !checkSignature(chunk) { return false }
        guard writeAll(chunk) else { return stop(.write(errno)) }
        hash.update(chunk)
        written += chunk.count
        return true
    }

    /// Called once the transfer ended well: a body shorter than the signature is judged here.
    func finishSignature() -> ImageType? {
        if type == nil, failure == nil { type = ImageType.detect(prefix) }
        return type
    }

    /// fsync: the bytes are on disk before the rename makes them the file.
    func flush() throws(FileFailure) {
        guard fsync(descriptor) == 0 else { throw FileFailure(errno: errno, path: temporaryPath) }
    }

    func digest() -> String { hash.finish() }

    /// Collects the first bytes until the type can be told; false (transfer stopped) when they
    /// are no image.
    private func checkSignature(_ chunk: UnsafeRawBufferPointer) -> Bool {
        prefix += chunk.prefix(ImageType.signatureLength - prefix.count)
        guard prefix.count >= ImageType.signatureLength else { return true }
        type = ImageType.detect(prefix)
        return type != nil || stop(.notAnImage)
    }

    private func stop(_ reason: Failure) -> Bool {
        failure = reason
        return false
    }

    private func writeAll(_ chunk: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < chunk.count {
            let count = write(descriptor, chunk.baseAddress! + offset, chunk.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}

/// A file system call that failed, with its errno: a full disk is told apart from the rest.
struct FileFailure: Error {
    let errno: Int32
    let path: String

    var isNoSpace: Bool { errno == ENOSPC || errno == EDQUOT || errno == EFBIG }
    var message: String { "\(path): \(String(cString: strerror(errno)))" }
}
