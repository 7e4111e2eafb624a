/// An object a save updates or deletes whose row another connection (or context) changed or
/// deleted since this context read it: Core Data's `NSMergeConflict`.
///
/// Values are keyed by column: attribute names, and to-one relationship names holding the
/// destination's row number (`.integer`) or `.null`.
public struct MergeConflict: Sendable, Equatable, CustomStringConvertible {
    public let object: ObjectID
    /// The row as this context last read or wrote it: what the save expected to find.
    public let cachedValues: [String: StoredValue]
    /// The row as stored now; nil when the row was deleted.
    public let storedValues: [String: StoredValue]?

    /// The columns whose stored value is no longer the one this context read.
    public var changedColumns: [String] {
        guard let storedValues else { return [] }
        return cachedValues.keys.filter { storedValues[$0] != cachedValues[$0] }.sorted()
    }

    public var description: String {
        guard let storedValues else { return "\(object) was deleted from the store" }
        let changes = changedColumns.map { "\($0) read \(cachedValues[$0]!.text), stored \(storedValues[$0]!.text)" }
        return "\(object) changed in the store (" + changes.joined(separator: "; ") + ")"
    }
}
