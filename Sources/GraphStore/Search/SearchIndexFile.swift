#if canImport(Glibc)
import Glibc
#endif
internal import GRDB

/// The SQLite file of a ``SearchIndex``: a contentless FTS5 table of trigrams (`detail=none`: row
/// ids only, the smallest form) and the facts that say which rows it covers.
///
/// Rows are only ever added: a changed row is added again under its id, so the index holds the
/// trigrams of its old and new texts, and a deleted row stays. Both only add candidates, which
/// the exact test drops; a rebuild clears them.
final class SearchIndexFile: @unchecked Sendable {
    /// What a file says about itself; `version` changes with this format.
    struct Facts: Equatable {
        static let version = "1"
        var identity: String
        /// The history token the rows are caught up to.
        var token: Int64
        /// Every row with a larger id is not indexed (it is read by the query itself).
        var mark: Int64
    }

    let path: String
    private let queue: DatabaseQueue

    private init(path: String, queue: DatabaseQueue) {
        (self.path, self.queue) = (path, queue)
    }

    /// A new, empty file at `path` (mode 0600; an older file there is replaced).
    static func create(at path: String) throws -> SearchIndexFile {
        unlink(path)
        let descriptor = Glibc.open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard descriptor >= 0 else { throw SearchIndexProblem("cannot create \(path): \(String(cString: strerror(errno)))") }
        Glibc.close(descriptor)
        let file = SearchIndexFile(path: path, queue: try DatabaseQueue(path: path, configuration: configuration))
        // A temporary file until renamed: no journal, no syncing while it fills.
        try file.queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF") }
        try file.queue.write { db in
            try db.execute(sql: "CREATE TABLE facts (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT")
            try db.execute(sql: "CREATE VIRTUAL TABLE trigrams USING fts5(text, content='', detail='none', tokenize='trigram case_sensitive 1')")
        }
        return file
    }

    /// The file at `path` and its facts; nil when there is none or it is not a readable index of
    /// this version.
    static func open(at path: String) -> (SearchIndexFile, Facts)? {
        guard access(path, F_OK) == 0, let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return nil }
        let file = SearchIndexFile(path: path, queue: queue)
        guard let facts = try? file.facts() else {
            try? queue.close()
            return nil
        }
        return (file, facts)
    }

    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        return configuration
    }

    private func facts() throws -> Facts {
        try queue.read { db in
            let pairs = try Row.fetchAll(db, sql: "SELECT key, value FROM facts").map { ($0[0] as String, $0[1] as String) }
            let facts = Dictionary(pairs, uniquingKeysWith: { $1 })
            guard facts["version"] == Facts.version, let identity = facts["identity"],
                let token = facts["token"].flatMap({ Int64($0) }), let mark = facts["mark"].flatMap({ Int64($0) })
            else { throw SearchIndexProblem("\(path) is not a search index of this version") }
            return Facts(identity: identity, token: token, mark: mark)
        }
    }

    /// Adds `documents` (row id, text) and records `facts`, in one transaction.
    func add(_ documents: [(Int64, String)], facts: Facts?) throws {
        try queue.write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO trigrams (rowid, text) VALUES (?, ?)")
            for (rowID, text) in documents { try insert.execute(arguments: [rowID, text]) }
            if let facts { try record(facts, db) }
        }
    }

    /// Merges the index into one b-tree (after a build: smaller, and a query reads one list per trigram).
    func optimize() throws {
        try queue.write { db in try db.execute(sql: "INSERT INTO trigrams (trigrams) VALUES ('optimize')") }
    }

    /// The rows whose text holds every trigram of `query`, at most `limit`; nil when more match.
    func candidates(_ query: String, limit: Int) throws -> [Int64]? {
        let rows = try queue.read { db in
            try Int64.fetchAll(db, sql: "SELECT rowid FROM trigrams WHERE trigrams MATCH ? LIMIT ?", arguments: [query, limit + 1])
        }
        return rows.count > limit ? nil : rows
    }

    func close() {
        try? queue.close()
    }

    private func record(_ facts: Facts, _ db: Database) throws {
        let values = ["version": Facts.version, "identity": facts.identity, "token": String(facts.token), "mark": String(facts.mark)]
        for (key, value) in values {
            try db.execute(sql: "INSERT INTO facts (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                           arguments: [key, value])
        }
    }
}

/// Why the index cannot be used; searches then read every row, as without one.
struct SearchIndexProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
