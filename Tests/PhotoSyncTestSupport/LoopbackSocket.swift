import Glibc

/// Thin POSIX helpers for loopback-only test sockets.
public enum LoopbackSocket {
    public struct Failure: Error, CustomStringConvertible {
        public let call: String
        public let code = errno
        public var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    /// A listening TCP socket on 127.0.0.1 with an OS-assigned port.
    public static func listen(backlog: Int32 = 16) throws(Failure) -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(call: "socket") }
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
            let failure = Failure(call: "bind/listen")
            close(fd)
            throw failure
        }
        return (fd, port(of: fd))
    }

    /// Starts connecting to 127.0.0.1:`port` without waiting for the handshake.
    public static func startConnecting(to port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var address = loopbackAddress(port: port)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return fd
    }

    private static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }

    private static func port(of fd: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Waits up to `timeout` seconds for `fd` to become readable.
    public static func waitReadable(_ fd: Int32, timeout: Double) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, Int32(timeout * 1000)) > 0
    }

    /// Sends all of `bytes`; false when the peer went away.
    @discardableResult
    public static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Closes with an RST instead of a FIN (SO_LINGER with a zero timeout).
    public static func reset(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(fd)
    }
}

/// A loopback port that was just bound and closed, so connecting to it is
/// refused (barring the unlikely reuse by another process in between).
public func closedLoopbackPort() throws -> UInt16 {
    let (fd, port) = try LoopbackSocket.listen()
    close(fd)
    return port
}

/// `http://127.0.0.1:PORT/rest` on a port nothing listens on (see `closedLoopbackPort()`): a feed
/// URL that is refused at once, for tests that must not reach a server.
public func closedLoopbackURL(_ path: String = "/rest") throws -> String {
    "http://127.0.0.1:\(try closedLoopbackPort())\(path)"
}
