/// One import spanning several saves: records keyed by unique attributes, judged by one merge
/// policy against the store as it stood when the session began.
///
/// ```swift
/// try container.importing(mergePolicy: .objectTrump) { session in
///     for page in pages {
///         let (photographers, photos) = records(of: page)   // ImportRecords
///         let result = try session.save(photographers, photos)
///     }
/// }
/// ```
/// Each ``save(_:)`` is one transaction (all of its records or none). The session remembers the
/// rows it stored itself, so across its saves:
/// - under `.error`, a conflict is a row that existed before the session; a row this session
///   stored is never one;
/// - a key seen again (in the same save or a later one) is a *repeat*: stored once, counted once
///   (``ImportCounts/repeated``), the copy that wins being the one the policy picks among new
///   duplicates (the last under `.objectTrump` and `.error`, the first under `.storeTrump`).
///
/// Records are looked up in batches (one query per entity and save, per 500 keys), rows the policy would
/// leave unchanged are not written, absent keys are inserted without a second lookup, and a save
/// runs again from its lookups when a write meets a key stored meanwhile. Rows whose to-many has
/// `deletesOwnerWhenEmpty` are inserted only when a record of the save links to them, and owners a
/// save empties are deleted in it. No objects are built: no hooks or validation run (as with Core
/// Data's batch insert), and contexts see the rows at their next fetch.
///
/// A session belongs to the thread that runs ``PersistentContainer/importing(mergePolicy:dryRun:_:)``'s body.
public final class ImportSession {
    public let mergePolicy: MergePolicy
    /// The author persistent history records for this session's saves (else the container's).
    public var transactionAuthor: String?
    let container: PersistentContainer
    /// The dry run's open transaction: every save becomes a savepoint in it.
    let enclosingWriter: (any StoreWriter)?
    /// Per entity: the rows this session stored or judged.
    var stored: [String: SessionRows] = [:]
    /// Per entity: rows that records link to, as last written (read again only when forgotten).
    var remembered: [String: RememberedRows] = [:]
    /// Entities whose last save found none of its keys stored: the next one inserts without looking up.
    var expectingNew: Set<String> = []
    private var totals: [String: ImportCounts] = [:]

    init(container: PersistentContainer, mergePolicy: MergePolicy, enclosingWriter: (any StoreWriter)?) {
        (self.container, self.mergePolicy, self.enclosingWriter) = (container, mergePolicy, enclosingWriter)
    }

    /// What the session's saves did so far to rows of `type`.
    public func counts(_ type: ManagedObject.Type) -> ImportCounts { totals[type.cachedEntityName] ?? ImportCounts() }

    /// ``counts(_:)`` with `result` counted too: the session's counts once a save not yet
    /// committed (the one ``save(preparing:finishing:)`` is finishing) commits.
    public func counts(_ type: ManagedObject.Type, adding result: ImportResult) -> ImportCounts {
        var counts = counts(type)
        counts += result.counts(type)
        return counts
    }

    /// Writes the records in one transaction and returns what changed. Records may link only to
    /// records of another entity in the same call.
    ///
    /// - Throws: ``GraphStoreError/constraintConflicts(_:)`` under `.error` for keys stored before
    ///   the session (nothing of this save is written; earlier saves stay), or a store error.
    @discardableResult
    public func save<each T: ManagedObject>(_ records: repeat ImportRecords<each T>) throws -> ImportResult {
        var tables: [RecordTable] = []
        for set in repeat each records { tables.append(set.table) }
        return try save(tables)
    }

    /// ``save(_:)`` with records that depend on other rows, made inside the save's transaction.
    ///
    /// `prepare` reads the store through `context` (fetches and counts, in the transaction's own
    /// snapshot) and returns the records to write; the reads and the writes commit together, and a
    /// save that runs again (a key stored meanwhile, an overlapping transaction) prepares again. Use
    /// it when another connection may change what must be left out between the moment the records
    /// were made and the save: tombstones a concurrent delete writes, say. Objects `context` fetches
    /// are for reading; its changes are never saved.
    ///
    /// ```swift
    /// try session.save(preparing: { context in
    ///     let excluded = try context.fetchColumns(FetchRequest<Tombstone>(), [\.$unique]).values(\.$unique)
    ///     return [AnyImportRecords(photos(leavingOut: Set(excluded)))]
    /// })
    /// ```
    @discardableResult
    public func save(preparing prepare: (ObjectContext) throws -> [AnyImportRecords]) throws -> ImportResult {
        try save { writer in
            let context = ObjectContext(container: container, parent: nil, mergePolicy: mergePolicy)
            return try context.reading(through: writer) { try prepare(context) }.map(\.table)
        }
    }

    /// ``save(preparing:)``, then `finish` in the same transaction once the records are written:
    /// it is told what this save did (``counts(_:adding:)`` gives the session's counts with it),
    /// and the changes it makes through `context` (objects it inserts, or fetches and changes, row
    /// updates) are saved in that transaction, so they commit with the records or not at all. Use
    /// it for a record of the work that must match what was written: a run's counts, say. A save
    /// that runs again prepares and finishes again, with a new context; `finish` may not delete.
    /// (The context's save takes the session's author; no observer hears of it.)
    @discardableResult
    public func save(
        preparing prepare: (ObjectContext) throws -> [AnyImportRecords], finishing finish: (ObjectContext, ImportResult) throws -> Void
    ) throws -> ImportResult {
        var context: ObjectContext?
        return try save({ writer in
            let fresh = ObjectContext(container: container, parent: nil, mergePolicy: mergePolicy)
            context = fresh
            return try fresh.reading(through: writer) { try prepare(fresh) }.map(\.table)
        }, finishing: { writer, result in
            guard let context else { return }
            try context.reading(through: writer) { try finish(context, result) }
            try context.save(through: writer)
        })
    }

    private func save(_ tables: [RecordTable]) throws -> ImportResult {
        try save { _ in tables }
    }

    private func save(
        _ makeTables: (any StoreWriter) throws -> [RecordTable], finishing: (any StoreWriter, ImportResult) throws -> Void = { _, _ in }
    ) throws -> ImportResult {
        var attempt = ImportAttempt.initial
        while true {
            do {
                var tables: [RecordTable] = []
                let outcome = try transaction { writer in
                    tables = try makeTables(writer)
                    var pass = ImportPass(session: self, tables: tables, attempt: attempt)
                    try pass.run(writer)
                    try finishing(writer, pass.outcome.result)
                    return pass.outcome
                }
                return apply(outcome, tables)
            } catch let violation as UniqueViolation {
                // An insert met a key after all: assumed absent, or stored by another connection meanwhile.
                guard let next = attempt.next else { throw GraphStoreError.writeFailed(violation.failure) }
                attempt = next
            } catch let failure as SerializationFailure {
                // Another connection's transaction overlapped this one (PostgreSQL): run again, reading.
                guard let next = attempt.next, enclosingWriter == nil else { throw GraphStoreError.writeFailed(failure.failure) }
                remembered = [:]
                attempt = next
            } catch GraphStoreError.constraintConflicts where attempt.assumesNew {
                // Keys assumed new were not looked up, so the conflicts found may not be all of
                // them: run again looking every key up, and report the whole list.
                attempt = .lookingUp
            } catch GraphStoreError.writeFailed where attempt.usesRemembered && !remembered.isEmpty {
                // A remembered row may have been deleted by another connection (a foreign key
                // fails): run again reading every key.
                remembered = [:]
                attempt = .reading
            }
        }
    }

    private func transaction<R>(_ body: (any StoreWriter) throws -> R) throws -> R {
        if let enclosingWriter { return try enclosingWriter.savepoint { try body(enclosingWriter) } }
        // Destinations are written before the rows that point at them: no deferred foreign keys.
        return try container.store.write(deferringForeignKeys: false) { writer in
            writer.describeTransaction(author: transactionAuthor, context: nil)
            return try body(writer)
        }
    }

    private func apply(_ outcome: ImportOutcome, _ tables: [RecordTable]) -> ImportResult {
        for (entity, changes) in outcome.storedRows { stored[entity, default: SessionRows()].apply(changes) }
        for (entity, rows) in outcome.rememberedRows { remembered[entity, default: RememberedRows()].remember(rows) }
        for (entity, rowIDs) in outcome.forgotten { remembered[entity]?.forget(rowIDs) }
        for table in tables where outcome.lookedUp.contains(table.entity.name) || outcome.assumedNew.contains(table.entity.name) {
            let name = table.entity.name
            if outcome.foundNone.contains(name) { expectingNew.insert(name) } else { expectingNew.remove(name) }
        }
        for (entity, counts) in outcome.result.counts { totals[entity, default: ImportCounts()] += counts }
        return outcome.result
    }
}

/// How a save looks its keys up, from the cheapest to the safest.
enum ImportAttempt {
    /// Entities expected to be all new are not looked up; remembered rows are trusted.
    case initial
    /// Every key is looked up; remembered rows are trusted.
    case lookingUp
    /// Every key is looked up, remembered ones too (after a failure that may come from them).
    case reading
    /// Run again after another connection stored a key meanwhile (PostgreSQL), a bounded number of times.
    case retry(Int)

    var assumesNew: Bool { if case .initial = self { true } else { false } }
    var usesRemembered: Bool {
        switch self {
        case .initial, .lookingUp: true
        case .reading, .retry: false
        }
    }

    var next: ImportAttempt? {
        switch self {
        case .initial: .lookingUp
        case .lookingUp, .reading: .retry(1)
        case .retry(let count): count < 8 ? .retry(count + 1) : nil
        }
    }
}

extension PersistentContainer {
    /// Runs `body` with an import session under `mergePolicy`.
    ///
    /// With `dryRun`, the whole body runs in one transaction that is rolled back at the end: every
    /// save sees the earlier ones, so the counts and errors are exactly those of the real run, and
    /// nothing is written. (Other connections wait for the store's write lock meanwhile.)
    public func importing<R>(mergePolicy: MergePolicy, dryRun: Bool = false, _ body: (ImportSession) throws -> R) throws -> R {
        guard dryRun else {
            return try IndexesAfterImport(model: model).deferring(in: store) {
                try body(ImportSession(container: self, mergePolicy: mergePolicy, enclosingWriter: nil))
            }
        }
        var result: Result<R, any Error>?
        do {
            try store.write(deferringForeignKeys: false) { writer in
                result = Result { try body(ImportSession(container: self, mergePolicy: mergePolicy, enclosingWriter: writer)) }
                throw DryRunRollback()
            }
        } catch is DryRunRollback {}
        return try result!.get()
    }
}

/// Thrown inside a dry run's transaction to roll it back.
private struct DryRunRollback: Error {}
