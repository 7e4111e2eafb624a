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
    private let deadline: ConnectionDeadline

    init(_ socket: AsyncSocket, limits: ServeLimits) {
        (self.socket, self.limits) = (socket, limits)
        deadline = ConnectionDeadline(seconds: limits.timeout)
    }

    /// Serves requests until the client goes or takes too long, then closes the socket.
    func serve(_ respond: @escaping @Sendable (HTTPRequestHead) async -> HTTPReply) async {
        defer { try? socket.close() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.exchange(respond) }
            group.addTask { await self.deadline.watch() }
            await group.next()
            group.cancelAll()
        }
    }

    /// Request after request, until the client goes (or the deadline cancels it).
    private func exchange(_ respond: @Sendable (HTTPRequestHead) async -> HTTPReply) async {
        while !Task.isCancelled {
            let head: HTTPRequestHead?
            do {
                deadline.arm()
                defer { deadline.clear() }
                head = try await readHead()
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

    /// Refuses a connection over the cap without reading from it (the short reply fits the
    /// socket's buffer: no deadline needed).
    func refuse() async {
        let bytes = HTTPReply.plain(503, "too many connections").encoded(forHead: false, keepAlive: false)
        _ = try? await socket.write(bytes)
        try? socket.close()
    }

    private func send(_ reply: HTTPReply, head: Bool, keepAlive: Bool) async {
        let bytes = reply.encoded(forHead: head, keepAlive: keepAlive)
        deadline.arm()
        defer { deadline.clear() }
        _ = try? await socket.write(bytes)
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
            // A read the deadline cancelled may still have returned bytes: never wait again.
            try Task.checkCancellation()
            pending += try await socket.read(atMost: 4096)
        }
    }
}
