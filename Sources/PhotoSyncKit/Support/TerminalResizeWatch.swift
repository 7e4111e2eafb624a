import Glibc
import Synchronization

/// Calls back on a thread of its own each time the terminal is resized (SIGWINCH), so a status
/// line can be fitted again while nothing else prints (a page that takes a minute to arrive).
///
/// The signal handler only writes a byte to a pipe (async-signal-safe); the watch's thread reads
/// it and runs `onResize`. One watch at a time: the fetch's progress bar.
final class TerminalResizeWatch: Sendable {
    /// The pipe's write end the handler writes to (-1: no watch).
    private static let writeEnd = Atomic<Int32>(-1)
    private let descriptors: (read: Int32, write: Int32)

    /// nil when the pipe or the thread cannot be made (the bar then refits at its next redraw only).
    init?(onResize: @escaping @Sendable () -> Void) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let readEnd = ends[0]
        guard let thread = try? WorkerThread(doing: "watch the terminal's size", { Self.relay(from: readEnd, onResize) }) else {
            _ = (close(ends[0]), close(ends[1]))
            return nil
        }
        thread.detach()
        descriptors = (ends[0], ends[1])
        Self.writeEnd.store(ends[1], ordering: .sequentiallyConsistent)
        Glibc.signal(SIGWINCH) { _ in
            let descriptor = TerminalResizeWatch.writeEnd.load(ordering: .sequentiallyConsistent)
            var byte: UInt8 = 1
            if descriptor >= 0 { _ = write(descriptor, &byte, 1) }
        }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGWINCH)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Restores the default (ignore) and ends the thread: it reads end-of-file.
    func stop() {
        Glibc.signal(SIGWINCH, SIG_DFL)
        guard Self.writeEnd.compareExchange(expected: descriptors.write, desired: -1, ordering: .sequentiallyConsistent).exchanged
        else { return }
        close(descriptors.write)
    }

    deinit { stop() }

    private static func relay(from descriptor: Int32, _ onResize: @Sendable () -> Void) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            onResize()
        }
        close(descriptor)
    }
}
