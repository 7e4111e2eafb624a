import Foundation
import Synchronization

/// The key's hourly budget of API calls (`api_budget`, Flickr allows 3,600 an hour and expires
/// keys it sees abused). Asked before every request, retries included, from whichever thread
/// downloads; the calls it grants are written to the catalog after each page (see
/// `Catalog.recordCalls`).
final class APIBudget: Sendable {
    static let window: TimeInterval = 3_600

    let fingerprint: String
    let limit: Int
    private let state: Mutex<(recent: [Date], unrecorded: [Date])>

    /// `recent`: the key's calls in the last hour before this fetch, as the catalog holds them.
    init(fingerprint: String, limit: Int, recent: [Date]) {
        (self.fingerprint, self.limit) = (fingerprint, limit)
        state = Mutex((recent.sorted(), []))
    }

    /// Grants one call now, or says when the budget frees up.
    func spend(now: Date = Date()) -> Result<Void, PhotoSyncError> {
        state.withLock { state in
            state.recent.removeAll { now.timeIntervalSince($0) >= Self.window }
            guard state.recent.count < limit else {
                let frees = state.recent[state.recent.count - limit].addingTimeInterval(Self.window)
                return .failure(.tryLater(
                    "the API budget of \(limit) calls an hour for this key is spent (api_budget); it frees up at "
                        + "\(timestamp(frees)) (in \(SourceHistory.duration(frees.timeIntervalSince(now) + 1))); pages so far are saved"))
            }
            state.recent.append(now)
            state.unrecorded.append(now)
            return .success(())
        }
    }

    /// Whether a call now would be refused (a re-check stops there, without an error).
    func isSpent(now: Date = Date()) -> Bool {
        state.withLock { state in state.recent.filter { now.timeIntervalSince($0) < Self.window }.count >= limit }
    }

    /// The calls granted since the last time, to record in the catalog.
    func takeUnrecorded() -> [Date] {
        state.withLock { state in
            defer { state.unrecorded.removeAll() }
            return state.unrecorded
        }
    }

    /// The calls granted since the last time, kept until ``markRecorded(_:)``: a page's save
    /// records them in its transaction, which may run again or fail.
    func unrecorded() -> [Date] { state.withLock { $0.unrecorded } }

    /// Forgets the first `count` unrecorded calls, which a committed save recorded.
    func markRecorded(_ count: Int) {
        state.withLock { $0.unrecorded.removeFirst(min(count, $0.unrecorded.count)) }
    }

    /// Identifies a key without revealing it: 64-bit FNV-1a of its bytes, as 16 hex digits (a
    /// Flickr key has 128 bits, so the fingerprint cannot give it back).
    static func fingerprint(of key: String?) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (key ?? "").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
