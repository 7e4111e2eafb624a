import Foundation

/// Who wrote a log line: `fetch[12345] catalog=/home/me/photos.sqlite`.
///
/// Several cron entries (and a user's manual runs) may share one log file; without the command,
/// its process and its catalog, a line such as `ERROR not in the catalog` cannot be traced back.
struct LogLineTag: Sendable, Equatable {
    var command: String
    var processID: Int32 = getpid()
    /// The catalog as shown to users (a PostgreSQL URL without its password); nil before it is known.
    var catalog: String?

    /// `fetch[12345] catalog=PATH`; a path with spaces or quotes is quoted so the line still splits on spaces.
    var text: String {
        let who = "\(command)[\(processID)]"
        guard let catalog else { return who }
        return "\(who) catalog=\(Self.quotedIfNeeded(catalog))"
    }

    static func quotedIfNeeded(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "\t" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
