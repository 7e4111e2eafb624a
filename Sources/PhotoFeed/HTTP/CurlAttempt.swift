internal import CCurl

/// One attempt at a request: an easy handle from the client's pool, set up with the client's rules
/// (schemes, redirects, TLS verification, timeouts), and the sink its response goes to. Performed
/// blocking (`CurlHTTPClient`) or by a multi handle among others (`CurlDownloads`), then concluded.
final class CurlAttempt {
    let handle: CurlEasyHandle
    private let sink: ResponseSink
    private let url: String
    private let client: CurlHTTPClient

    init(
        _ client: CurlHTTPClient, _ url: String, allowFileScheme: Bool, isCancelled: @escaping @Sendable () -> Bool,
        stream: (any ResponseStream)?, resumeAt: Int?
    ) throws(AttemptFailure) {
        (self.client, self.url) = (client, url)
        sink = ResponseSink(limit: client.configuration.maxResponseBytes, stream: stream, isCancelled: isCancelled)
        do {
            handle = try Self.makeHandle(client, url, allowFileScheme: allowFileScheme, sink: sink)
            if stream == nil { try handle.set(CURLOPT_ACCEPT_ENCODING, "") } else { handle.preferBufferSize(256 << 10) }
            if let resumeAt, resumeAt > 0 { try handle.set(CURLOPT_RANGE, "\(resumeAt)-") }
        } catch {
            throw AttemptFailure(reason: error, retryAfter: nil)
        }
    }

    /// The response once libcurl ended the transfer with `code`. A handle whose transfer completed
    /// goes back to the pool (its connection is sound); after a transport failure it is closed.
    func conclude(_ code: CURLcode) throws(AttemptFailure) -> HTTPResponse {
        guard code == CURLE_OK else {
            throw AttemptFailure(reason: error(for: code), retryAfter: nil)
        }
        let response = withExtendedLifetime(sink) { HTTPResponse(status: status(), headers: sink.headers, body: sink.body) }
        client.handles.giveBack(handle)
        guard response.status < 400 else {
            let retryAfter = response.headers["retry-after"].flatMap { RetryAfter.seconds(from: $0) }
            throw AttemptFailure(reason: .status(response.status), retryAfter: retryAfter)
        }
        return response
    }

    private static func makeHandle(
        _ client: CurlHTTPClient, _ url: String, allowFileScheme: Bool, sink: ResponseSink
    ) throws(HTTPError) -> CurlEasyHandle {
        let configuration = client.configuration
        let handle = try client.handles.take()
        try handle.set(CURLOPT_URL, url)
        try handle.set(CURLOPT_PROTOCOLS_STR, allowFileScheme ? "http,https,file" : "http,https")
        try handle.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try handle.set(CURLOPT_FOLLOWLOCATION, 1)
        try handle.set(CURLOPT_MAXREDIRS, configuration.maxRedirects)
        try handle.set(CURLOPT_SSL_VERIFYPEER, 1)
        try handle.set(CURLOPT_SSL_VERIFYHOST, 2)
        if let caFile = configuration.caFile { try handle.set(CURLOPT_CAINFO, caFile) }
        try handle.set(CURLOPT_CONNECTTIMEOUT_MS, CurlHTTPClient.milliseconds(configuration.connectTimeout))
        try handle.set(CURLOPT_TIMEOUT_MS, CurlHTTPClient.milliseconds(configuration.timeout))
        try handle.set(CURLOPT_NOSIGNAL, 1)
        try handle.set(CURLOPT_USERAGENT, configuration.userAgent)
        try handle.deliver(to: sink)
        return handle
    }

    /// file:// transfers have no status line; a successful read counts as 200.
    private func status() -> Int {
        let code = handle.responseCode
        return code == 0 && URLScheme.isFile(url) ? 200 : code
    }

    private func error(for code: CURLcode) -> HTTPError {
        let message = URLRedaction.redact(handle.message(for: code))
        switch code {
        case CURLE_ABORTED_BY_CALLBACK where sink.wasCancelled:
            return .cancelled
        case CURLE_WRITE_ERROR where sink.exceededLimit:
            return .tooLarge(limit: client.configuration.maxResponseBytes)
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_PARTIAL_FILE:
            return .truncatedBody
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects
        case CURLE_UNSUPPORTED_PROTOCOL where sink.headers["location"] != nil:
            // The first URL's scheme was checked up front, so a refused 3xx
            // (the last response the sink saw) pointed somewhere not allowed.
            return .redirectRefused(URLRedaction.redact(sink.headers["location"] ?? ""))
        case CURLE_URL_MALFORMAT:
            return .invalidURL(URLRedaction.redact(url))
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_SEND_ERROR,
             CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
            return .connection(message)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CIPHER:
            return .tls(message)
        case CURLE_FILE_COULDNT_READ_FILE:
            return .fileUnreadable(message)
        default:
            return .transport(code: Int(code.rawValue), message: message)
        }
    }
}

/// A failed attempt plus what the back-off needs to know about it.
struct AttemptFailure: Error {
    let reason: HTTPError
    let retryAfter: Double?
}
