import GraphStore
import PhotoFeed

/// What `migrate` copied: rows by kind, as counted in the destination afterwards.
struct CopyReport: Equatable {
    /// (what, how many), in the order `migrate` prints them.
    let counts: [(name: String, rows: Int)]

    static func == (lhs: CopyReport, rhs: CopyReport) -> Bool { lhs.counts.elementsEqual(rhs.counts) { $0 == $1 } }
}

extension Catalog {
    /// The catalog's entities as `migrate` names them.
    private static let tableNames: [(entity: String, name: String)] = [
        ("Photo", "photos"), ("Photographer", "photographers"), ("FetchRun", "runs"),
        ("ExcludedPhoto", "excluded photos"), ("ExcludedPhotographer", "excluded photographers"), ("APICall", "api calls"),
    ]

    /// Copies every row (photos, photographers, runs, exclusions, API calls) into `destination`,
    /// which must hold none, in one transaction there; then checks that the destination counts
    /// what this catalog held. The change history comes along, then a transaction by `migrate`. Text keeps the feed's rule on the way: NUL becomes U+FFFD (a catalog
    /// written before the rule may hold it; PostgreSQL cannot).
    /// - Throws: `PhotoSyncError.catalog` (74) when the destination is not empty, the copy fails,
    ///   or the counts differ.
    func copy(into destination: Catalog) throws -> CopyReport {
        let expected = try counts()
        let copied: [String: Int]
        do throws(GraphStoreError) {
            copied = try container.copyContents(into: destination.container, author: "migrate", convertingText: FeedText.withoutNUL)
        } catch {
            throw Self.notEmptyError(destination, after: error) ?? PhotoSyncError.from(error, path: destination.path)
        }
        let report = CopyReport(counts: Self.tableNames.map { ($0.name, copied[$0.entity] ?? 0) })
        guard report == expected else {
            throw PhotoSyncError.catalog("copied counts differ from \(path)'s: \(Self.describe(report)) instead of \(Self.describe(expected))")
        }
        return report
    }

    private func counts() throws -> CopyReport {
        try withContext { context in
            try context.readingOneSnapshot {
                let counts = [
                    try context.count(FetchRequest<Photo>()), try context.count(FetchRequest<Photographer>()),
                    try context.count(FetchRequest<FetchRun>()), try context.count(FetchRequest<ExcludedPhoto>()),
                    try context.count(FetchRequest<ExcludedPhotographer>()), try context.count(FetchRequest<APICall>()),
                ]
                return CopyReport(counts: zip(Self.tableNames, counts).map { ($0.name, $1) })
            }
        }
    }

    /// GraphStore names the first table holding rows by its entity (`Photo holds rows`); a user
    /// needs the catalog's words: `it holds 24 photos, 7 photographers`.
    private static func notEmptyError(_ destination: Catalog, after error: GraphStoreError) -> PhotoSyncError? {
        guard case .incompatibleStore = error, let held = try? destination.counts() else { return nil }
        let nonEmpty = CopyReport(counts: held.counts.filter { $0.rows > 0 })
        guard !nonEmpty.counts.isEmpty else { return nil }
        return .catalog("\(destination.path) is not empty: it holds \(describe(nonEmpty)); migrate copies only into a catalog with no rows")
    }

    static func describe(_ report: CopyReport) -> String {
        report.counts.map { "\($0.rows) \($0.name)" }.joined(separator: ", ")
    }
}
