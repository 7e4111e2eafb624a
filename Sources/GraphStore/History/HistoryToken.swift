/// A point in a store's persistent history: the transactions after it are what changed since.
/// Tokens increase in commit order on both stores. Its text form (``description``) is opaque: keep
/// it and hand it back (``init(_:)``), do not compute with it.
public struct HistoryToken: Sendable, Hashable, Comparable, LosslessStringConvertible {
    let value: Int64

    init(_ value: Int64) { self.value = value }

    /// Before any transaction: reading after it reads the whole history (if none was deleted).
    public static let start = HistoryToken(0)

    public init?(_ description: String) {
        guard let value = Int64(description), value >= 0 else { return nil }
        self.value = value
    }

    public var description: String { String(value) }

    public static func < (lhs: HistoryToken, rhs: HistoryToken) -> Bool { lhs.value < rhs.value }
}
