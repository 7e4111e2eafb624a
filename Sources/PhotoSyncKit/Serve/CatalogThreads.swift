import Dispatch

/// Runs catalog reads off Swift's cooperative threads (two on this kind of machine; a blocking
/// SQLite or libpq call there would stall every connection), at most `width` at once.
final class CatalogThreads: Sendable {
    private let queue = DispatchQueue(label: "photosync.serve.catalog", attributes: .concurrent)
    private let slots: DispatchSemaphore

    init(width: Int = 4) {
        slots = DispatchSemaphore(value: width)
    }

    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { [slots] in
                slots.wait()
                defer { slots.signal() }
                continuation.resume(returning: body())
            }
        }
    }
}
