import Dispatch
import Foundation
import Glibc
import Synchronization

/// Turns SIGINT and SIGTERM into a flag the fetch loop checks between pages, so the page being
/// saved completes (or rolls back) and the run is recorded as interrupted.
final class InterruptionWatch {
    private let received = Mutex<Int32>(0)
    private let sources: [any DispatchSourceSignal]

    init() {
        let queue = DispatchQueue(label: "photosync.signals")
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            Glibc.signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            sources.append(source)
        }
        self.sources = sources
        for (source, signalNumber) in zip(sources, [SIGINT, SIGTERM]) {
            source.setEventHandler { [weak self] in self?.received.withLock { $0 = signalNumber } }
            source.resume()
        }
    }

    deinit {
        for source in sources { source.cancel() }
        Glibc.signal(SIGINT, SIG_DFL)
        Glibc.signal(SIGTERM, SIG_DFL)
    }

    /// The signal received, if any.
    var signal: Int32? {
        let value = received.withLock { $0 }
        return value == 0 ? nil : value
    }
}
