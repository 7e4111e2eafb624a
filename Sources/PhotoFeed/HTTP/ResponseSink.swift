/// Collects one transfer's headers and body from libcurl's C callbacks.
///
/// The body never grows past `limit`: the write callback refuses the chunk
/// that would cross it, which makes libcurl abort with `CURLE_WRITE_ERROR`,
/// so an oversized (or endlessly inflating) response is never held in memory.
///
/// With a `stream`, the body goes there instead of into `body` (the limit still applies).
///
/// It also answers libcurl's progress callback: once `isCancelled` returns true
/// the transfer is aborted (`CURLE_ABORTED_BY_CALLBACK`) and `wasCancelled` is set.
final class ResponseSink {
    let limit: Int
    private let isCancelled: () -> Bool
    private(set) var body: [UInt8] = []
    private(set) var headers: [String: String] = [:]
    private(set) var exceededLimit = false
    private(set) var wasCancelled = false
    /// The stream refused a chunk: the transfer was aborted on its behalf.
    private(set) var streamStopped = false
    /// The status of the response whose headers are being read (the final one once the body flows).
    private(set) var status = 0
    private(set) var received = 0
    private let stream: (any ResponseStream)?

    init(limit: Int, stream: (any ResponseStream)? = nil, isCancelled: @escaping () -> Bool = { false }) {
        self.limit = limit
        self.stream = stream
        self.isCancelled = isCancelled
    }

    /// Returns false (abort the transfer) once the caller has cancelled it.
    func shouldContinue() -> Bool {
        if !wasCancelled, isCancelled() { wasCancelled = true }
        return !wasCancelled
    }

    /// Returns false (abort the transfer) once the limit would be passed.
    func appendBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard chunk.count <= limit - received else {
            exceededLimit = true
            return false
        }
        received += chunk.count
        guard let stream else {
            body.append(contentsOf: chunk)
            return true
        }
        if !stream.receive(chunk, status: status, headers: headers) { streamStopped = true }
        return !streamStopped
    }

    /// Takes one raw header line. A status line starts a new response
    /// (after a redirect or a 1xx), so only the final response's headers remain.
    func appendHeaderLine(_ line: UnsafeRawBufferPointer) {
        switch HeaderLine(line) {
        case .status(let code):
            headers = [:]
            status = code
        case .field(let name, let value):
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        case .other:
            break
        }
    }
}
