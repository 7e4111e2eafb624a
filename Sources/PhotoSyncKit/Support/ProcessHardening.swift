import Glibc

/// Process-wide settings made once at start-up.
enum ProcessHardening {
    /// - No core dumps: a dump of a fetch holds the API key many times over (request URLs, buffers).
    /// - SIGPIPE ignored: a closed stdout pipe then fails the write with EPIPE, which `Console.write`
    ///   turns into a quiet exit, instead of killing a fetch between two pages.
    static func apply() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        signal(SIGPIPE, SIG_IGN)
    }
}
