internal import CLibPQ
#if canImport(Glibc)
import Glibc
#endif

/// LISTEN/NOTIFY on a connection of its own (see ``PostgresHistoryListener``).
extension PostgresConnection {
    /// Waits up to `milliseconds` for the server to send something (poll on the socket, so the
    /// caller looks at its own stop condition between waits), reads it, and returns the payloads
    /// of the notifications received. Throws when the connection is lost.
    func notifications(waitingUpTo milliseconds: Int32) throws(PostgresError) -> [String] {
        let socket = cpq_socket(handle)
        guard socket >= 0 else { throw PostgresError(sqlState: nil, message: "the connection is closed") }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) >= 0 || errno == EINTR else {
            throw PostgresError(sqlState: nil, message: "poll: " + String(cString: strerror(errno)))
        }
        guard cpq_consume_input(handle) == 1 else { throw PostgresError(sqlState: nil, message: String(cString: cpq_error_message(handle))) }
        var payloads: [String] = []
        while let notification = cpq_notifies(handle) {
            payloads.append(String(cString: notification.pointee.extra))
            cpq_freemem(notification)
        }
        return payloads
    }
}
