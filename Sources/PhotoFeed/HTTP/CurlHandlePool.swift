internal import CCurl
import Synchronization

/// Easy handles kept between requests, so consecutive pages reuse one connection (and one
/// TLS session) instead of connecting again: libcurl keeps a handle's connections open after a
/// transfer, for the next transfer on the same handle.
final class CurlHandlePool: Sendable {
    /// Idle handles beyond this many are closed: a fetch downloads one page at a time, image
    /// downloads `--jobs` at once.
    private let capacity: Int
    private let idle = Mutex<[CurlEasyHandle]>([])

    init(capacity: Int = 2) {
        self.capacity = max(1, capacity)
    }

    /// An idle handle (its options already cleared), or a new one.
    func take() throws(HTTPError) -> CurlEasyHandle {
        if let handle = idle.withLock({ $0.popLast() }) { return handle }
        return try CurlEasyHandle()
    }

    /// Keeps `handle` for the next request, its options cleared at once: an idle handle holds no
    /// pointer to the finished request's response. Only handles whose transfer completed come
    /// back (an HTTP error status included); after a transport failure the connection's state is
    /// unknown, so that handle is closed.
    func giveBack(_ handle: CurlEasyHandle) {
        handle.reset()
        idle.withLock { handles in
            if handles.count < capacity { handles.append(handle) }
        }
    }

    /// Handles waiting for a request (for tests).
    var idleCount: Int { idle.withLock { $0.count } }
}
