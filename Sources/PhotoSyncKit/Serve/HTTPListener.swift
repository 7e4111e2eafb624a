import Foundation
import FlyingSocks
import Synchronization

/// The accept loop: one task per connection, at most ``ServeLimits/maxConnections`` at once.
///
/// Built on FlyingSocks (FlyingFox's socket layer, already a dependency) rather than FlyingFox's
/// `HTTPServer`, whose timeout bounds only the handler: it has no read timeout and no connection
/// cap, and those are what keep a public gallery up (see docs/serve.md).
final class HTTPListener: Sendable {
    private let limits: ServeLimits
    private let open = Mutex(0)

    init(limits: ServeLimits) {
        self.limits = limits
    }

    /// Binds and listens on `host:port` (an IPv4 or IPv6 literal); port 0 picks a free one.
    /// - Throws: `PhotoSyncError.usage` for a host that is not an address, `.configuration` when the port is taken.
    static func bind(host: String, port: UInt16) throws -> Socket {
        do {
            if host.contains(":") {
                let socket = try Socket(domain: AF_INET6, type: .stream)
                try socket.setValue(true, for: .localAddressReuse)
                try socket.bind(to: sockaddr_in6.inet6(ip6: host, port: port))
                try socket.listen()
                return socket
            }
            let socket = try Socket(domain: AF_INET, type: .stream)
            try socket.setValue(true, for: .localAddressReuse)
            try socket.bind(to: sockaddr_in.inet(ip4: host, port: port))
            try socket.listen()
            return socket
        } catch SocketError.unsupportedAddress {
            throw PhotoSyncError.usage("--host \(host): give an IP address such as 127.0.0.1 or ::1")
        } catch {
            throw PhotoSyncError.configuration("cannot listen on \(host):\(port): \(error)")
        }
    }

    /// Accepts until cancelled.
    func run(on socket: Socket, _ respond: @escaping @Sendable (HTTPRequestHead) async -> HTTPReply) async throws {
        let pool: some AsyncSocketPool = .ePoll()
        try await pool.prepare()
        let listener = try AsyncSocket(socket: socket, pool: pool)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await pool.run() }
            for try await client in listener.sockets {
                let connection = HTTPConnection(client, limits: limits)
                guard admit() else {
                    group.addTask { await connection.refuse() }
                    continue
                }
                group.addTask {
                    await connection.serve(respond)
                    self.open.withLock { $0 -= 1 }
                }
            }
        }
    }

    private func admit() -> Bool {
        open.withLock { count in
            guard count < limits.maxConnections else { return false }
            count += 1
            return true
        }
    }
}
