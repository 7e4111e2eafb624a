import Foundation

/// stdout for data, stderr for one-line diagnostics prefixed with the tool's name.
enum Console {
    /// Writes `text` as is; renderers end their output with a newline themselves.
    static func write(_ text: String) {
        print(text, terminator: "")
    }

    /// One line on stderr: an error, or a notice such as waiting for the lock.
    static func diagnostic(_ message: String) {
        writeError("photosync: \(message)\n")
    }

    static func warning(_ message: String) {
        writeError("photosync: warning: \(message)\n")
    }

    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
