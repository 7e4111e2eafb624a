internal import CCurl

/// libcurl, loaded on first use (see `ccurl.h`: linking it would cost every command ~5 ms of start-up).
enum CurlLibrary {
    /// Why libcurl could not be loaded and initialised; nil once it is ready. Loads it on first access.
    static let loadError: String? = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard ccurl_load(&buffer, buffer.count) != 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}
