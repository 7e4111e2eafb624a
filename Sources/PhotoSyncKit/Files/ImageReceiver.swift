import Foundation
import PhotoFeed

/// Writes one image transfer to its temporary file, hashing and checking it as it arrives, so a
/// file is never held in memory nor read again. Chunks are gathered into blocks (`HashBlock`),
/// each written with one call and then hashed on `HashingThread`, off the transfers' thread.
///
/// Bodies of error responses are ignored (the status decides). The transfer is stopped at the
/// first 12 bytes when they are no image signature (an HTML page served as `image/jpeg`), and at
/// the first failed write (a full disk): `failure` says which.
///
/// Resuming: given the bytes a cut transfer left (`resumeAt`), a 206 answer is appended to them
/// when it carries the same validator; a 200 answer starts over.
final class ImageReceiver: ResponseStream {
    enum Failure: Equatable {
        case notAnImage
        case write(Int32)
        case overBudget
        /// A 206 for another version of the image than the bytes kept.
        case changedUpstream
    }

    let temporaryPath: String
    private var descriptor: Int32
    private let budget: ByteBudget
    private var hash = StreamDigest()
    /// Bytes received and not written yet (`written` counts them).
    private var staged: HashBlock?
    private var prefix: [UInt8] = []
    private(set) var written = 0
    private(set) var type: ImageType?
    private(set) var failure: Failure?
    /// The final response's status and headers, as the body began.
    private(set) var status = 0
    private(set) var headers: [String: String] = [:]

    /// Bytes the file held before this attempt's body (the resumed part; 0 when starting over).
    private(set) var startOffset = 0
    private var resumable: PartialTransfer?
    private var bodyStarted = false

    /// Opens `temporaryPath` (mode 0644), emptied, or kept when `resuming` names the transfer its
    /// bytes came from: they are hashed once here, the one time a part of a file is read again.
    init(temporaryPath: String, budget: ByteBudget, resuming: PartialTransfer? = nil) throws(FileFailure) {
        self.temporaryPath = temporaryPath
        self.budget = budget
        let flags = O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW | (resuming == nil ? O_TRUNC : 0)
        descriptor = open(temporaryPath, flags, 0o644)
        guard descriptor >= 0 else { throw FileFailure(errno: errno, path: temporaryPath) }
        guard let resuming else { return }
        if readBack() { (resumable, startOffset) = (resuming, written) } else { startOver() }
    }

    /// The bytes to ask for with `Range`, or nil to start from the first.
    var resumeAt: Int? { resumable == nil || written == 0 ? nil : written }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        staged.map(HashBlock.giveBack)
    }

    /// Before each attempt: the first keeps resumed bytes (or an empty file as it is); a retry
    /// starts over (it sends no `Range`).
    func restart() {
        bodyStarted = false
        if written == startOffset && failure == nil && status == 0 && (resumable != nil || startOffset == 0) { return }
        startOver()
    }

    func receive(_ chunk: UnsafeRawBufferPointer, status: Int, headers: [String: String]) -> Bool {
        (self.status, self.headers) = (status, headers)
        guard (200...299).contains(status) else { return true }
        if !bodyStarted {
            bodyStarted = true
            if status == 206 {
                guard let resumable, startOffset > 0, resumable.matches(headers) else { return stop(.changedUpstream) }
            } else if startOffset > 0 {
                startOver()
            }
        }
        guard budget.take(chunk.count) else { return stop(.overBudget) }
        if type == nil, !checkSignature(chunk) { return false }
        guard stage(chunk) else { return false }
        written += chunk.count
        return true
    }

    /// Writes what is staged; false (with `failure` set) when the write failed. Called when the
    /// transfer ends, before anything looks at the file.
    func finishWriting() -> Bool {
        let error = flush()
        return error == 0 || stop(.write(error))
    }

    /// Whether the response answered the `Range` request: `Content-Length` then counts only the
    /// bytes after `startOffset`.
    var continuedPart: Bool { status == 206 && startOffset > 0 }

    /// What the next run needs to continue this cut transfer, when the server allows it.
    func partialTransfer(url: String) -> PartialTransfer? {
        guard written > 0, let validator = PartialTransfer.validator(in: headers) else { return nil }
        return PartialTransfer(url: url, validator: validator)
    }

    private func startOver() {
        staged.map(HashBlock.giveBack)
        staged = nil
        ftruncate(descriptor, 0)
        lseek(descriptor, 0, SEEK_SET)
        (hash, prefix, written, type, failure, status, headers) = (StreamDigest(), [], 0, nil, nil, 0, [:])
        (resumable, startOffset) = (nil, 0)
    }

    /// Hashes the bytes already in the file and leaves the offset at its end; false when it
    /// cannot read them or they do not start like an image.
    private func readBack() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        lseek(descriptor, 0, SEEK_SET)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return false }
            if count == 0 { break }
            buffer.withUnsafeBytes { bytes in
                let chunk = UnsafeRawBufferPointer(rebasing: bytes[0..<count])
                if type == nil { prefix += chunk.prefix(ImageType.signatureLength - prefix.count) }
                hash.hashNow(chunk)
            }
            written += count
        }
        if prefix.count >= ImageType.signatureLength { type = ImageType.detect(prefix) }
        return written > 0 && (type != nil || prefix.count < ImageType.signatureLength)
    }

    /// Called once the transfer ended well: a body shorter than the signature is judged here.
    func finishSignature() -> ImageType? {
        if type == nil, failure == nil { type = ImageType.detect(prefix) }
        return type
    }

    /// Gives the open descriptor to `FileKeeper`, which fsyncs and closes it: the receiver is done.
    func handOver() -> Int32 {
        defer { descriptor = -1 }
        return descriptor
    }

    /// The sha256 of every byte written, once hashed: the receiver takes no more.
    func digest() -> StreamDigest {
        hash.seal()
        return hash
    }

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

    /// Gathers `chunk` into blocks, writing and handing over each one filled.
    private func stage(_ chunk: UnsafeRawBufferPointer) -> Bool {
        var rest = chunk
        while !rest.isEmpty {
            var block = staged ?? HashBlock.take()
            rest = block.append(rest)
            staged = block
            if block.isFull {
                let error = flush()
                guard error == 0 else { return stop(.write(error)) }
            }
        }
        return true
    }

    /// Writes the staged block and hands it to the digest: 0, or the write's errno.
    private func flush() -> Int32 {
        guard let block = staged else { return 0 }
        staged = nil
        guard writeAll(block.bytes) else {
            let error = errno
            HashBlock.giveBack(block)
            return error
        }
        hash.update(block)
        return 0
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
