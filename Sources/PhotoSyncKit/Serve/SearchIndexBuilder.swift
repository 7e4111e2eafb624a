import Foundation
import GraphStore

/// Builds the catalog's search index on a thread of its own while serve answers: searches read
/// every title until it is ready (one line on stderr then), and again after a failure (a full
/// disk, a read-only cache folder, pruned history), which it retries every minute, saying so once.
struct SearchIndexBuilder: Sendable {
    let gallery: Gallery
    /// The index file; nil when there is no cache folder (no HOME), and so no index.
    let file: String?
    static let retryInterval = 60.0

    func start() {
        Thread.detachNewThread { run() }
    }

    private func run() {
        guard let file else {
            Console.notice("no cache folder (HOME is not set): searches read every title")
            return
        }
        var saidFailure = false
        while !gallery.isStopping {
            if !gallery.catalog.searchIndexIsReady {
                saidFailure = prepare(file, saidFailure: saidFailure)
            }
            let until = Date().addingTimeInterval(Self.retryInterval)
            while !gallery.isStopping && Date() < until { Thread.sleep(forTimeInterval: 0.25) }
        }
    }

    /// One attempt; returns whether a failure has been said (and not followed by a success).
    private func prepare(_ file: String, saidFailure: Bool) -> Bool {
        let started = ContinuousClock.now
        do {
            try PrivateFolder.create((file as NSString).deletingLastPathComponent)
            let report = try gallery.catalog.prepareSearchIndex(file: file)
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            let size = String(format: "%.1f MB", Double(report.bytes) / 1_000_000)
            Console.notice(report.built
                ? "search index ready: \(report.rows) photos indexed in \(String(format: "%.1f", seconds)) s (\(file), \(size))"
                : "search index ready (\(file), \(size))")
            return false
        } catch {
            guard !gallery.isStopping, !saidFailure else { return saidFailure }
            Console.warning("no search index, searches read every title (retrying every minute): \(error.localizedDescription)")
            return true
        }
    }
}
