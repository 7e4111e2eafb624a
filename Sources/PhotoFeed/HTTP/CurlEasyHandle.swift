internal import CCurl

/// Owns one libcurl easy handle (and its error buffer); `deinit` releases both,
/// so no error path can leak a handle. The handle keeps its open connections
/// between transfers (see ``CurlHandlePool``).
///
/// Not thread-safe, like the handle itself: one thread at a time configures and
/// performs a transfer. It is `Sendable` only so a pool can pass it from one
/// transfer's thread to the next one's.
final class CurlEasyHandle: @unchecked Sendable {
    /// The libcurl handle, for a multi handle to drive (`CurlMulti`).
    let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init() throws(HTTPError) {
        if let reason = CurlLibrary.loadError {
            throw .transport(code: Int(CURLE_FAILED_INIT.rawValue), message: reason)
        }
        guard let handle = ccurl_easy_init() else {
            throw .transport(code: Int(CURLE_FAILED_INIT.rawValue), message: "libcurl could not create a handle")
        }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    /// Forgets every option of the previous transfer (callbacks and their context included)
    /// but keeps the open connections, the DNS cache and TLS sessions.
    func reset() {
        ccurl_easy_reset(handle)
        errorBuffer.update(repeating: 0, count: Int(CURL_ERROR_SIZE))
        ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    deinit {
        ccurl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    func set(_ option: CURLoption, _ value: Int) throws(HTTPError) {
        try check(ccurl_setopt_long(handle, option, value), option)
    }

    /// libcurl copies string options, so the temporary C string may go away.
    func set(_ option: CURLoption, _ value: String) throws(HTTPError) {
        try check(value.withCString { ccurl_setopt_string(handle, option, $0) }, option)
    }

    /// Reads a streamed body (an image) in pieces of `bytes` rather than libcurl's 16 KiB: fewer
    /// reads and wake-ups per image (curl's own tool reads 100 KiB). libcurl refuses a new size
    /// once a handle has a buffer (a pooled handle keeps its first one), which is as good.
    func preferBufferSize(_ bytes: Int) {
        _ = ccurl_setopt_long(handle, CURLOPT_BUFFERSIZE, bytes)
    }

    /// Routes headers and body into `sink`, which must outlive `perform()`, and
    /// asks it from the progress callback whether to go on.
    func deliver(to sink: ResponseSink) throws(HTTPError) {
        let context = Unmanaged.passUnretained(sink).toOpaque()
        ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context)
        ccurl_setopt_progress_function(handle) { context, _, _, _, _ in
            Unmanaged<ResponseSink>.fromOpaque(context!).takeUnretainedValue().shouldContinue() ? 0 : 1
        }
        try set(CURLOPT_NOPROGRESS, 0)
        ccurl_setopt_write_function(handle) { data, size, count, context in
            let chunk = UnsafeRawBufferPointer(start: data, count: size * count)
            let sink = Unmanaged<ResponseSink>.fromOpaque(context!).takeUnretainedValue()
            return sink.appendBody(chunk) ? size * count : 0
        }
        ccurl_setopt_header_function(handle) { data, size, count, context in
            let line = UnsafeRawBufferPointer(start: data, count: size * count)
            Unmanaged<ResponseSink>.fromOpaque(context!).takeUnretainedValue().appendHeaderLine(line)
            return size * count
        }
    }

    /// Runs the transfer, blocking the calling thread.
    func perform() -> CURLcode {
        ccurl_easy_perform(handle)
    }

    /// libcurl's detailed message for the last failure, or the generic text for `code`.
    func message(for code: CURLcode) -> String {
        let detail = String(cString: errorBuffer).trimmingWhitespace()
        return detail.isEmpty ? String(cString: ccurl_easy_strerror(code)) : String(detail)
    }

    var responseCode: Int {
        var code = 0
        ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(HTTPError) {
        guard code != CURLE_OK else { return }
        throw .transport(code: Int(code.rawValue), message: "option \(option.rawValue) rejected: \(message(for: code))")
    }
}
