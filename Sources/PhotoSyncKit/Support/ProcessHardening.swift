import Glibc

/// Process-wide settings made once at start-up.
enum ProcessHardening {
    /// - No core dumps: a dump of a fetch holds the API key many times over (request URLs, buffers).
    /// - SIGPIPE ignored: a closed stdout pipe then fails the write with EPIPE, which `Console.write`
    ///   turns into a quiet exit, instead of killing a fetch between two pages.
    /// - SIGXFSZ ignored: past `ulimit -f` a write then fails with EFBIG, which SQLite reports and
    ///   the catalog explains, instead of the signal killing the process.
    /// - Crashes and hangs that resource limits cause end with one line (`FatalSignals`, `Watchdog`).
    static func apply() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        FatalSignals.install()
        Watchdog.start()
    }
}
