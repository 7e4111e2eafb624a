import Foundation

/// stdout through `write(2)`, so a failed write is seen (stdio's buffer hid it until exit, when
/// nothing reported it) and a closed pipe is told apart from a full disk.
enum StandardOutput {
    static func write(_ text: String) throws(PhotoSyncError) {
        let bytes = Array(text.utf8)
        let failure = bytes.withUnsafeBufferPointer { buffer -> PhotoSyncError? in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written >= 0 {
                    offset += written
                    continue
                }
                switch errno {
                case EINTR, EAGAIN: continue
                case EPIPE: return .closedPipe
                default: return .output("cannot write to standard output: \(String(cString: strerror(errno)))")
                }
            }
            return nil
        }
        if let failure { throw failure }
    }
}
