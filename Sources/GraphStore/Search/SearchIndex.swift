#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A trigram index over some text attributes of an entity, kept in a SQLite file of its own and
/// built outside the writes (a store's saves and imports never pay for it), so that a
/// case-insensitive `contains` on those attributes need not read every row.
///
/// It never changes what a fetch returns: ``ObjectContext/searchCandidates(_:containing:)`` only
/// adds a condition naming the rows that can match (the index's candidates, and every row added
/// since the index last caught up), and the `contains` predicates still test each of them. Before
/// each use the index catches up, in the fetch's own snapshot, from the store's persistent
/// history (the container must track it): the rows inserted or whose indexed attributes changed
/// are added again. It works alike whether the store is SQLite or PostgreSQL: <doc:SearchingText>.
public final class SearchIndex<Root: ManagedObject>: Sendable {
    let container: PersistentContainer
    let entity: EntityDescription
    /// The indexed attributes' columns.
    let columns: [String]
    let path: String
    /// Past this many candidates the index gives none: the text is common, so a newest-first page
    /// fills after a short scan, and a list of ids that long costs more than it saves.
    let candidateLimit: Int
    private let live = Mutex<Live?>(nil)

    struct Live: @unchecked Sendable {
        let file: SearchIndexFile
        var facts: SearchIndexFile.Facts
        /// The token when the file was built or opened: it holds every text since, not before
        /// (a build reads rows as they are), so an older snapshot must not use it.
        let base: Int64

        init(file: SearchIndexFile, facts: SearchIndexFile.Facts) {
            (self.file, self.facts, base) = (file, facts, facts.token)
        }
    }

    /// - Parameters:
    ///   - file: where the index lives; it is written only by replacing it whole (a build writes
    ///     a temporary file beside it, then renames it) or by adding rows in a transaction.
    ///   - candidateLimit: more candidates than this, and the fetch reads rows as without index.
    public init(_ attributes: [KeyPath<Root, Attribute<String>>], of container: PersistentContainer, file: String, candidateLimit: Int = 2000) {
        self.container = container
        entity = EntityDescription.of(Root.self)
        columns = attributes.map { FetchPredicate<Root>.column($0) }
        path = file
        self.candidateLimit = candidateLimit
    }

    /// Whether searches use the index now (false before ``prepare()`` and after a failure, until
    /// the next ``prepare()``).
    public var isReady: Bool { live.withLock { $0 != nil } }

    /// Makes the index usable: reopens the file when it is this store's index and the store's
    /// history still reaches it, else builds it anew, reading the rows a page at a time (other
    /// reads go on meanwhile). Run it off any request path: on a million rows it takes seconds.
    /// - Throws: ``GraphStoreError/storeUnavailable(path:reason:kind:)`` naming the index file
    ///   when it cannot be written or the store keeps no history; the store's errors as they are.
    @discardableResult
    public func prepare() throws(GraphStoreError) -> SearchIndexReport {
        do {
            if let opened = SearchIndexFile.open(at: path) {
                let (file, facts) = opened
                if try container.store.read({ reader in try isCurrent(facts, reader) }) {
                    install(Live(file: file, facts: facts))
                    return SearchIndexReport(built: false, rows: 0, bytes: fileSize())
                }
                file.close()
            }
            let (live, rows) = try build()
            install(live)
            return SearchIndexReport(built: true, rows: rows, bytes: fileSize())
        } catch let error as GraphStoreError {
            throw error
        } catch {
            throw .storeUnavailable(path: path, reason: "\(error)")
        }
    }

    /// The condition naming the rows that may contain `text`, read in `reader`'s snapshot after
    /// catching up; nil when the index cannot narrow (not ready, fewer than three characters,
    /// too many candidates). A failure to catch up drops the index (searches read every row) until
    /// the next ``prepare()``.
    func candidates(containing text: String, reader: any StoreReader) -> FetchPredicate<Root>? {
        guard let query = SearchNeedle(text).query else { return nil }
        return live.withLock { live -> FetchPredicate<Root>? in
            guard var current = live else { return nil }
            do {
                let token = try currentToken(reader)
                guard token.value >= current.base else { return nil }
                current.facts = try catchUp(current.file, current.facts, to: token, reader)
                live = current
                // A query FTS5 refuses is the needle's fault, not the file's: that search reads every row.
                guard let rows = try? current.file.candidates(query, limit: candidateLimit) else { return nil }
                // Caught up, every row is indexed; a row above the mark means a writer without
                // history (whose changes the index cannot know either): those rows are read too.
                let unindexed = try hasRow(above: current.facts.mark, reader)
                return FetchPredicate(Self.rows(rows, above: unindexed ? current.facts.mark : nil, of: entity.name))
            } catch {
                current.file.close()
                live = nil
                return nil
            }
        }
    }

    /// The rows `ids`, and those above `mark` when given. With a mark, as a subquery: SQLite then
    /// finds the rows by id rather than walking the fetch's sort index and testing each against
    /// the list (without ids, the range alone: `0 OR id > ?` would read every id).
    static func rows(_ ids: [Int64], above mark: Int64?, of entity: String) -> PredicateNode {
        let named: PredicateNode = .isIn(column: "id", ids.map { .integer($0) })
        guard let mark else { return named }
        let above: PredicateNode = .compare(column: "id", .greater, .integer(mark))
        return .anyMember(entity: entity, inverseColumn: "id", ids.isEmpty ? above : .or([named, above]))
    }

    private func install(_ new: Live) {
        let old = live.withLock { live in
            defer { live = new }
            return live
        }
        old?.file.close()
    }

    private func fileSize() -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }
}

/// What ``SearchIndex/prepare()`` did.
public struct SearchIndexReport: Sendable, Equatable {
    /// Whether it built the file (false: it reopened an existing one).
    public let built: Bool
    /// The rows a build indexed.
    public let rows: Int
    /// The file's size.
    public let bytes: Int64
}
