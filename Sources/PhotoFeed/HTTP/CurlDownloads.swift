internal import CCurl

/// Many downloads at once on one thread, through libcurl's multi interface: each is
/// `CurlHTTPClient.download` (the same rules, retries and back-off) without a thread of its own.
/// Transfers share the multi handle's connections: reused per host, and HTTP/2 streams multiplexed
/// on one connection when the server offers it (a transfer waits for that rather than opening one).
///
/// The thread that calls `step` runs everything: libcurl's callbacks into the streams, and each
/// download's `completion`. Not thread-safe: one thread uses it.
public final class CurlDownloads {
    public typealias Completion = (Result<HTTPResponse, HTTPError>) -> Void

    private final class Transfer {
        let url: String
        let stream: any ResponseStream
        let resumeAt: Int?
        let isCancelled: @Sendable () -> Bool
        let completion: Completion
        var attempt = 1
        var current: CurlAttempt?

        init(_ url: String, _ stream: any ResponseStream, _ resumeAt: Int?, _ isCancelled: @escaping @Sendable () -> Bool, _ completion: @escaping Completion) {
            (self.url, self.stream, self.resumeAt, self.isCancelled, self.completion) = (url, stream, resumeAt, isCancelled, completion)
        }
    }

    private let client: CurlHTTPClient
    private let multi: CurlMulti
    private var running: [UnsafeMutableRawPointer: Transfer] = [:]
    /// Transfers waiting for their back-off before the next attempt.
    private var backingOff: [(at: ContinuousClock.Instant, transfer: Transfer)] = []
    /// Ended before reaching libcurl (a refused URL): reported by the next `step`.
    private var ended: [(Transfer, HTTPError)] = []

    /// `client`'s configuration applies to every transfer; `idleConnections` bounds the connections.
    public init(client: CurlHTTPClient) throws(HTTPError) {
        self.client = client
        multi = try CurlMulti(connections: client.configuration.idleConnections)
    }

    /// Downloads still under way (running, or waiting to retry).
    public var count: Int { running.count + backingOff.count + ended.count }

    /// Starts downloading `url` (http or https only) into `stream`, from `resumeAt` when given (a
    /// `Range` request, first attempt only). `completion` runs in a later `step`.
    public func start(
        _ url: String, into stream: any ResponseStream, resumeAt: Int? = nil, isCancelled: @escaping @Sendable () -> Bool = { false },
        completion: @escaping Completion
    ) {
        let transfer = Transfer(url, stream, resumeAt, isCancelled, completion)
        do {
            try URLScheme.check(url, allowFileScheme: false)
            try launch(transfer)
        } catch {
            ended.append((transfer, error))
        }
    }

    /// Moves every download along and calls the completions of those that ended; when none did,
    /// waits at most `seconds` for something to happen (so a caller refills freed slots at once).
    public func step(waitingAtMost seconds: Double = 0.2) {
        var finished = !ended.isEmpty
        for (transfer, error) in ended { transfer.completion(.failure(error)) }
        ended = []
        relaunchDue()
        multi.perform()
        while let (handle, code) = multi.nextDone() {
            finish(handle, code)
            finished = true
        }
        guard count > 0, ended.isEmpty, !finished else { return }
        let wake = backingOff.map { Self.seconds($0.at - ContinuousClock.now) }.min().map { min($0, seconds) } ?? seconds
        multi.poll(milliseconds: Int((max(0, wake) * 1000).rounded(.up)))
    }

    private func launch(_ transfer: Transfer) throws(HTTPError) {
        guard !transfer.isCancelled() else { throw .cancelled }
        transfer.stream.restart()
        let attempt: CurlAttempt
        do {
            attempt = try CurlAttempt(
                client, transfer.url, allowFileScheme: false, isCancelled: transfer.isCancelled, stream: transfer.stream,
                resumeAt: transfer.attempt == 1 ? transfer.resumeAt : nil)
        } catch {
            throw error.reason
        }
        // Over https a transfer waits for the connection's ALPN answer to share it (HTTP/2)
        // rather than opening another. Plain http is HTTP/1.1: waiting would only serialize.
        if transfer.url.lowercased().hasPrefix("https:") { try attempt.handle.set(CURLOPT_PIPEWAIT, 1) }
        guard multi.add(attempt.handle) else { throw .transport(code: Int(CURLE_FAILED_INIT.rawValue), message: "libcurl refused a transfer") }
        transfer.current = attempt
        running[attempt.handle.handle] = transfer
    }

    /// A transfer libcurl ended: done, failed for good, or waiting to retry.
    private func finish(_ handle: UnsafeMutableRawPointer, _ code: CURLcode) {
        guard let transfer = running.removeValue(forKey: handle), let attempt = transfer.current else { return }
        multi.remove(attempt.handle)
        transfer.current = nil
        do throws(AttemptFailure) {
            transfer.completion(.success(try attempt.conclude(code)))
        } catch {
            do {
                let delay = try client.retryDelay(after: error, attempt: transfer.attempt)
                transfer.attempt += 1
                backingOff.append((ContinuousClock.now + .milliseconds(Int((delay * 1000).rounded(.up))), transfer))
            } catch let reason {
                transfer.completion(.failure(reason))
            }
        }
    }

    /// Starts the next attempt of each transfer whose back-off is over (or ends it, cancelled).
    private func relaunchDue() {
        let now = ContinuousClock.now
        let waiting = backingOff
        backingOff = []
        for (at, transfer) in waiting {
            guard at <= now || transfer.isCancelled() else {
                backingOff.append((at, transfer))
                continue
            }
            do { try launch(transfer) } catch { ended.append((transfer, error)) }
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
