import Foundation
import FlyingSocks
import Synchronization

/// A running gallery: prints where it listens, serves until SIGINT or SIGTERM, then returns.
struct ServeSession {
    let socket: Socket
    let host: String
    let token: AccessToken
    let limits: ServeLimits

    func run(_ gallery: Gallery) throws {
        let router = GalleryRouter(gallery: gallery, token: token, threads: CatalogThreads(), log: { Console.warning($0) })
        let listener = HTTPListener(limits: limits)
        try announce()
        let done = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        let task = Task { [socket] in
            defer { done.signal() }
            do {
                try await listener.run(on: socket) { await router.respond($0) }
            } catch {
                failure.withLock { $0 = error }
            }
        }
        let signals = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                gallery.stop()
                task.cancel()
            }
            source.resume()
            return source
        }
        done.wait()
        signals.forEach { $0.cancel() }
        try? socket.close()
        if let error = failure.withLock({ $0 }), !task.isCancelled {
            throw PhotoSyncError.configuration("the server stopped: \(error)")
        }
        Console.writeError("stopped\n")
    }

    /// The URL to open (with the token when one is needed), on stdout; the warning for a public address on stderr.
    private func announce() throws {
        let port = (try? socket.sockname()).flatMap { address -> UInt16? in
            switch address {
            case .ip4(_, let port), .ip6(_, let port): port
            default: nil
            }
        } ?? 0
        let shownHost = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        let base = host.contains(":") && shownHost == host ? "http://[\(host)]:\(port)/" : "http://\(shownHost):\(port)/"
        if !ServeCommand.isLoopback(host) {
            Console.warning("serving on \(host), reachable from other machines: anyone with the link can see the catalog")
        }
        let url = base + (token.value.map { "?token=\($0)" } ?? "")
        try Console.write("serving the catalog at \(url) (Ctrl-C stops)\n")
    }
}
