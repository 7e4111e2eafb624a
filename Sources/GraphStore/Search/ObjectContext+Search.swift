extension ObjectContext {
    /// A condition naming the rows of `index`'s entity whose indexed attributes may contain `text`
    /// (case-insensitively, as ``FetchPredicate/contains(_:_:caseInsensitive:)-(_,_,Bool)`` folds): add it to
    /// those `contains` predicates with `&&`, and the fetch reads the candidates instead of every
    /// row; the result is the same. Inside ``readingOneSnapshot(_:)``, the index catches up to that
    /// snapshot. Nil when the index cannot narrow: not ready, a text of fewer than three
    /// characters (no trigram), or more candidates than its limit (a common text).
    public func searchCandidates<Root>(_ index: SearchIndex<Root>, containing text: String) throws -> FetchPredicate<Root>? {
        try readingOneSnapshot {
            guard let reader = snapshotReader else { return nil }
            return index.candidates(containing: text, reader: reader)
        }
    }
}
