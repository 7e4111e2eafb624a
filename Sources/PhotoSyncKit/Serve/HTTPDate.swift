import Foundation

/// RFC 9110's IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), for Last-Modified and If-Modified-Since.
private let formatter: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter
}()
private let lock = NSLock()

func httpDate(_ date: Date) -> String {
    lock.withLock { formatter.string(from: date) }
}

func parseHTTPDate(_ text: String) -> Date? {
    lock.withLock { formatter.date(from: text) }
}
