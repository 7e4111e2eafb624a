internal import CCurl

/// Owns one libcurl multi handle: many easy handles' transfers moved along by one thread, sharing
/// one connection cache (connections reused per host, HTTP/2 streams multiplexed on one connection
/// when the server offers it). Not thread-safe: one thread uses it, like the handle itself.
final class CurlMulti {
    private let multi: UnsafeMutableRawPointer

    /// `connections`: at most this many open to one host, and kept open between transfers.
    init(connections: Int) throws(HTTPError) {
        if let reason = CurlLibrary.loadError {
            throw .transport(code: Int(CURLE_FAILED_INIT.rawValue), message: reason)
        }
        guard let multi = ccurl_multi_init() else {
            throw .transport(code: Int(CURLE_FAILED_INIT.rawValue), message: "libcurl could not create a multi handle")
        }
        self.multi = multi
        ccurl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connections)
        ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, connections)
    }

    deinit { ccurl_multi_cleanup(multi) }

    /// Starts `handle`'s transfer; false when libcurl refused it.
    func add(_ handle: CurlEasyHandle) -> Bool {
        ccurl_multi_add_handle(multi, handle.handle) == CURLM_OK
    }

    func remove(_ handle: CurlEasyHandle) {
        ccurl_multi_remove_handle(multi, handle.handle)
    }

    /// Moves every transfer along as far as it can go without waiting.
    func perform() {
        var running: Int32 = 0
        ccurl_multi_perform(multi, &running)
    }

    /// Waits up to `milliseconds` for any transfer's socket (or libcurl's own timer).
    func poll(milliseconds: Int) {
        ccurl_multi_poll(multi, Int32(max(0, milliseconds)))
    }

    /// The next finished transfer's handle and result, or nil.
    func nextDone() -> (UnsafeMutableRawPointer, CURLcode)? {
        var handle: UnsafeMutableRawPointer?
        var result = CURLE_OK
        guard ccurl_multi_next_done(multi, &handle, &result) != 0, let handle else { return nil }
        return (handle, result)
    }
}
