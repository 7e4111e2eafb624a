/// The merge rules, in the one place both writers read them: a context's save (``SavePlanner``)
/// and an import session's (``ImportPass``). Which duplicate survives, which values win, what is a
/// conflict; each writer only says what it met.
///
/// A field is *assigned* when its writer set it: an attribute given a value (even its default),
/// a to-one given a destination. Unassigned fields never override anything.
extension MergePolicy {
    /// What a field holds, as far as merging goes: to-ones fill an empty stored link even under
    /// `.storeTrump`; attributes never replace a stored value there, nor does a member set.
    enum Field: Sendable, CaseIterable {
        case attribute
        case toOne
        /// An import record's complete set of many-to-many members: it replaces the stored pairs
        /// as an attribute replaces a value (an empty stored set is a value, kept under `.storeTrump`).
        case memberSet
    }

    /// What a unique key met.
    enum KeyMeeting: Sendable, Equatable {
        /// Another new object of the same save (a context's objects; an import's repeated records
        /// are one row told twice, merged as duplicates, never this).
        case newObject
        /// A stored row; `writtenBySameWork` when the import session itself stored it earlier.
        case storedRow(writtenBySameWork: Bool)
        /// An updated object's new key met another stored identity: resolving it would delete a
        /// stored row (and what cascades from it), which no policy does.
        case movedKey
    }

    /// Which of `count` new duplicates (same unique key, in insertion order) survives and takes
    /// the row: the first under `.storeTrump`, else the last.
    func survivor(among count: Int) -> Int {
        self == .storeTrump ? 0 : count - 1
    }

    /// Whether a later duplicate's assigned value replaces what earlier duplicates merged: always,
    /// but under `.storeTrump` only where none of them assigned the field.
    func laterDuplicateWins(earlierAssigned: Bool) -> Bool {
        self != .storeTrump || !earlierAssigned
    }

    /// Whether the duplicates' merged value replaces a stored row's: under `.objectTrump` and
    /// `.error` (for a row it may merge with) always; under `.storeTrump` only an empty to-one (a
    /// stored row's member set, empty or not, is kept there).
    func newValueWins(_ field: Field, storedIsEmpty: Bool) -> Bool {
        self != .storeTrump || (field == .toOne && storedIsEmpty)
    }

    /// Whether meeting a key is reported (``GraphStoreError/constraintConflicts(_:)``) rather than
    /// merged: everything under `.error` but a row the same import stored; a moved key always.
    func reportsConflict(_ meeting: KeyMeeting) -> Bool {
        switch meeting {
        case .newObject: self == .error
        case .storedRow(let writtenBySameWork): self == .error && !writtenBySameWork
        case .movedKey: true
        }
    }

    /// The value duplicates agree on: `offered` in insertion order, nil where one left the field
    /// unassigned; nil when none assigned it.
    func merged<Value>(_ offered: some Sequence<Value?>) -> Value? {
        var result: Value?
        for case let value? in offered where laterDuplicateWins(earlierAssigned: result != nil) { result = value }
        return result
    }

    /// The value a field ends with: the duplicates' `merged` value (nil: unassigned) against the
    /// `stored` row's (nil: a new row, which keeps `unassigned`, the survivor's own value).
    func resolved<Value>(_ field: Field, stored: Value?, storedIsEmpty: Bool, merged: Value?, unassigned: Value) -> Value {
        guard let stored else { return merged ?? unassigned }
        guard let merged, newValueWins(field, storedIsEmpty: storedIsEmpty) else { return stored }
        return merged
    }
}
