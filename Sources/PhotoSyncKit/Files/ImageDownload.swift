import Foundation
import PhotoFeed

/// Downloads one image into the files folder: to a temporary name, verified while it streams, then
/// handed to `FileKeeper` (fsync, rename). No path under a final name ever holds a partial or
/// unverified file, whatever stops the process. Its transfer runs among others on `CurlDownloads`.
struct ImageDownload: Sendable {
    let folder: String
    let budget: ByteBudget
    let isCancelled: @Sendable () -> Bool

    /// Starts `job` on `transfers`; `done` hears how it ended (from a later `transfers.step()`, or
    /// at once when its temporary file cannot be opened). Continues what a cut transfer left when
    /// it can; starts again when the server's copy changed.
    func start(_ job: DownloadJob, on transfers: CurlDownloads, done: @escaping (TransferEnd) -> Void) {
        let temporary = folder + "/" + FileLayout.temporaryName(photoID: job.photoID, size: job.sizeLabel)
        let saved = PartialTransfer.take(forPart: temporary).flatMap { $0.url == job.url ? $0 : nil }
        attempt(job, temporary, resuming: saved, on: transfers) { end in
            guard case .settled(.restartNeeded) = end else { return done(end) }
            attempt(job, temporary, resuming: nil, on: transfers) { end in
                guard case .settled(.restartNeeded) = end else { return done(end) }
                done(.settled(.failed("the image changed during the transfer")))
            }
        }
    }

    private func attempt(
        _ job: DownloadJob, _ temporary: String, resuming: PartialTransfer?, on transfers: CurlDownloads,
        done: @escaping (TransferEnd) -> Void
    ) {
        let receiver: ImageReceiver
        do {
            receiver = try ImageReceiver(temporaryPath: temporary, budget: budget, resuming: resuming)
        } catch {
            return done(.settled(error.isNoSpace ? .noSpace(error.message) : .failed(error.message)))
        }
        transfers.start(job.url, into: receiver, resumeAt: receiver.resumeAt, isCancelled: isCancelled) { result in
            let (outcome, cut) = transferred(job, receiver, result)
            guard case .settled = outcome else { return done(outcome) }
            if cut, let partial = receiver.partialTransfer(url: job.url) {
                partial.save(forPart: temporary)
            } else {
                unlink(temporary)
            }
            done(outcome)
        }
    }

    /// The outcome, and whether the connection was cut mid-body (the part is worth keeping).
    private func transferred(
        _ job: DownloadJob, _ receiver: ImageReceiver, _ result: Result<HTTPResponse, HTTPError>
    ) -> (TransferEnd, Bool) {
        // The last bytes reach the file first: a failed write leaves `receiver.failure` to tell.
        let written = receiver.finishWriting()
        switch result {
        case .success(let response) where written:
            return (verify(job, receiver, response), false)
        case .success:
            return (.settled(outcome(of: .cancelled, receiver)), false)
        case .failure(let error):
            let cut = [.truncatedBody, .timedOut, .cancelled].contains(error) || { if case .connection = error { true } else { false } }()
            return (.settled(outcome(of: error, receiver)), cut && receiver.failure == nil)
        }
    }

    private func verify(_ job: DownloadJob, _ receiver: ImageReceiver, _ response: HTTPResponse) -> TransferEnd {
        // A 3xx left over (no Location) or a 204 carries no image.
        guard response.status == 200 || receiver.continuedPart else {
            return .settled(.failed("server answered HTTP \(response.status) without an image"))
        }
        guard let type = receiver.finishSignature() else { return .settled(notAnImage(receiver)) }
        let received = receiver.written - (receiver.continuedPart ? receiver.startOffset : 0)
        if let length = receiver.headers["content-length"].flatMap(Int.init), length != received {
            return .settled(.failed("received \(received) bytes where Content-Length announced \(length)"))
        }
        let file = VerifiedFile(
            path: FileLayout.name(photoID: job.photoID, size: job.sizeLabel, type: type), size: receiver.written,
            sha256: "", sizeLabel: job.sizeLabel, contentType: type.contentType)
        return .verified(VerifiedTemporary(
            descriptor: receiver.handOver(), temporaryPath: receiver.temporaryPath, digest: receiver.digest(), hashless: file))
    }

    private func outcome(of error: HTTPError, _ receiver: ImageReceiver) -> DownloadOutcome {
        switch receiver.failure {
        case .notAnImage: return notAnImage(receiver)
        case .overBudget: return .stopped
        case .changedUpstream: return .restartNeeded
        case .write(let number):
            let failure = FileFailure(errno: number, path: receiver.temporaryPath)
            return failure.isNoSpace ? .noSpace(failure.message) : .failed(failure.message)
        case nil: break
        }
        switch error {
        case .status(let code) where [403, 404, 410].contains(code):
            return .unavailable(status: code, reason: "HTTP \(code)")
        case .invalidURL, .schemeNotAllowed, .redirectRefused, .tooManyRedirects:
            return .unavailable(status: 0, reason: error.description)
        case .cancelled:
            return .stopped
        default:
            return .failed(error.description)
        }
    }

    private func notAnImage(_ receiver: ImageReceiver) -> DownloadOutcome {
        let type = receiver.headers["content-type"].map { " (served as \($0))" } ?? ""
        return .unavailable(status: 0, reason: "not a JPEG, PNG, GIF or WebP image\(type)")
    }
}
