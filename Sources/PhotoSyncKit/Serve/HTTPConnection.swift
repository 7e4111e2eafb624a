import Foundation
import FlyingSocks

/// One client connection: reads request heads (keep-alive, pipelined heads kept for the next
/// round), answers each, and closes on errors, timeouts, `Connection: close` or a request body.
final class HTTPConnection: @unchecked Sendable {
    // Used by one task at a time: the connection's own (the deadline's child task runs while that
    // task waits for it).
    private let socket: AsyncSocket
    private var pending: [UInt8] = []
    private let limits: ServeLimits

    init(_ socket: AsyncSocket, limits: ServeLimits) {
        (self.socket, self.limits) = (socket, limits)
    }

    /// Serves requests until the client goes, then closes the socket.
    func serve(_ respond: @Sendable (HTTPRequestHead) async -> HTTPReply) async {
        defer { try? socket.close() }
        while !Task.isCancelled {
            let head: HTTPRequestHead?
            do {
                head = try await withDeadline(limits.timeout) { try await self.readHead() }
            } catch HeadProblem.tooLarge {
                return await send(.plain(431, "request head too large"), head: false, keepAlive: false)
            } catch {
                return  // timeout, disconnect or cancellation: nothing more to say to this client
            }
            guard let head else { return await send(.plain(400, "bad request"), head: false, keepAlive: false) }
            let keepAlive = head.keepsAlive && !head.announcesBody
            let reply = await respond(head)
            await send(reply, head: head.method == "HEAD", keepAlive: keepAlive)
            if !keepAlive { return }
        }
    }

    /// Refuses a connection over the cap without reading from it.
    func refuse() async {
        await send(.plain(503, "too many connections"), head: false, keepAlive: false)
        try? socket.close()
    }

    private func send(_ reply: HTTPReply, head: Bool, keepAlive: Bool) async {
        let bytes = reply.encoded(forHead: head, keepAlive: keepAlive)
        _ = try? await withDeadline(limits.timeout) { try await self.socket.write(bytes) }
    }

    enum HeadProblem: Error { case tooLarge }

    /// The next head (nil: malformed); throws on disconnect, or when it exceeds the limit.
    private func readHead() async throws -> HTTPRequestHead? {
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let range = pending.firstRange(of: end) {
                let head = HTTPRequestHead.parse(pending[..<range.lowerBound])
                pending.removeSubrange(..<range.upperBound)
                return head
            }
            guard pending.count <= limits.maxHeadBytes else { throw HeadProblem.tooLarge }
            pending += try await socket.read(atMost: 4096)
        }
    }
}
