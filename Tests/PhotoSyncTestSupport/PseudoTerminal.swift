import Foundation
import Glibc

// glibc declares these only under _XOPEN_SOURCE, which Swift's Glibc module does not set.
@_silgen_name("posix_openpt") private func posix_openpt(_ flags: Int32) -> Int32
@_silgen_name("grantpt") private func grantpt(_ descriptor: Int32) -> Int32
@_silgen_name("unlockpt") private func unlockpt(_ descriptor: Int32) -> Int32
@_silgen_name("ptsname") private func ptsname(_ descriptor: Int32) -> UnsafeMutablePointer<CChar>?

/// Runs the built binary with stdout and stderr on a pseudo-terminal of a given size, as in a
/// terminal emulator (or a tmux pane), and returns every byte it wrote there.
public struct PseudoTerminal: Sendable {
    public struct Result: Sendable {
        public var status: Int32
        /// What the terminal received, stdout and stderr interleaved as written (`\n` arrives as `\r\n`).
        public var output: String
    }

    public let columns: Int
    public let rows: Int

    public init(columns: Int, rows: Int = 24) {
        self.columns = columns
        self.rows = rows
    }

    /// `photosync args` in `sandbox`'s environment, on this terminal; blocks until it exits.
    public func run(_ args: [String], in sandbox: BinarySandbox, environment extra: [String: String] = [:]) throws -> Result {
        try start(args, in: sandbox, environment: extra).wait()
    }

    /// Starts `photosync args` on this terminal and returns at once, for a test that acts while it
    /// runs (resizes the terminal, signals the process).
    public func start(_ args: [String], in sandbox: BinarySandbox, environment extra: [String: String] = [:]) throws -> Session {
        let master = posix_openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let slave = open(String(cString: name), O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            close(master)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: BinarySandbox.binary)
        process.arguments = args
        var environment = sandbox.environment(extra)
        environment["TERM"] = "xterm"
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: sandbox.directory)
        process.standardInput = FileHandle.nullDevice
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardOutput = terminal
        process.standardError = terminal
        let reader = MasterReader(master)
        do {
            try process.runOneAtATime()
        } catch {
            close(slave)
            close(master)
            throw error
        }
        close(slave)
        return Session(process: process, master: master, reader: reader, rows: rows)
    }

    /// A command running on a pseudo-terminal.
    public final class Session: @unchecked Sendable {
        private let process: Process
        private let master: Int32
        private let reader: MasterReader
        private let rows: Int

        fileprivate init(process: Process, master: Int32, reader: MasterReader, rows: Int) {
            (self.process, self.master, self.reader, self.rows) = (process, master, reader, rows)
        }

        /// What the terminal received so far.
        public var output: String { reader.snapshot() }

        /// Resizes the terminal and sends SIGWINCH, as the kernel does to a terminal's foreground
        /// process (the child has no controlling terminal of its own here).
        public func resize(columns: Int) {
            var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
            _ = ioctl(master, UInt(TIOCSWINSZ), &size)
            kill(process.processIdentifier, SIGWINCH)
        }

        public func signal(_ number: Int32) {
            kill(process.processIdentifier, number)
        }

        /// Waits (polling, at most `seconds`) until the output satisfies `condition`; false if it never did.
        public func waitForOutput(seconds: Double = 120, _ condition: (String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition(output) { return true }
                if !process.isRunning { return condition(output) }
                usleep(20_000)
            }
            return false
        }

        /// Waits for the command to exit; everything it wrote.
        public func wait() -> Result {
            process.waitUntilExit()
            let result = Result(status: process.terminationStatus, output: reader.finish())
            close(master)
            return result
        }
    }
}

/// Drains the master side on a thread of its own, so the child never blocks on a full terminal.
private final class MasterReader: @unchecked Sendable {
    private let descriptor: Int32
    private var bytes: [UInt8] = []
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                // EIO once the last slave descriptor is closed (the child exited).
                if count <= 0 { break }
                lock.withLock { bytes.append(contentsOf: buffer[0..<count]) }
            }
            done.signal()
        }
    }

    /// Everything read, once the child's side is closed.
    func finish() -> String {
        done.wait()
        return snapshot()
    }

    /// Everything read so far.
    func snapshot() -> String {
        lock.withLock { String(decoding: bytes, as: UTF8.self) }
    }
}
