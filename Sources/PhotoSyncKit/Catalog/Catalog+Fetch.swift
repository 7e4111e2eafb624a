import Foundation

extension Catalog {
    /// Fetches the settings' feed into the catalog: a ``FetchJob``, which says what a fetch does,
    /// in order. `lease`, the fetch lock when it can be lost, is confirmed before each page's save
    /// and before the run's end; a signal recorded on `interruption` stops the run after the page
    /// being saved, as the deadline (`--max-time`) does. `pagesExpected` hears, before each
    /// `progress`, how many pages the walk expects as the feed last reported them.
    func fetch(
        _ settings: FetchSettings, lease: LockLease? = nil, interruption: InterruptionWatch, progress: @escaping (FetchSummary) -> Void,
        pagesExpected: @escaping (Int) -> Void = { _ in }
    ) throws -> FetchSummary {
        try FetchJob(self, settings, lease: lease, interruption: interruption, progress: progress, pagesExpected: pagesExpected).run()
    }
}
