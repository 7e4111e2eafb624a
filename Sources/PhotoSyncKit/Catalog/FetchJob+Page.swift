import GraphStore

/// One page of a fetch, once downloaded and prepared: its save, with the run's record, and its count.
extension FetchJob {
    /// Saves `prepared` through `session`, leaving out what deletes exclude, read in the save's
    /// transaction: a delete that committed after the page was prepared is honoured, never undone.
    /// The run's record (its counts with this page, the API calls so far) is written in the same
    /// transaction. License ids the page brings that the catalog lacks are looked up first
    /// (``LicenseLookup``); the photos' tags are linked by the same save.
    func save(_ prepared: PreparedPage, catchUp: Bool, in session: ImportSession) throws -> (PreparedPage, ImportResult) {
        try licenses.meet(prepared.page)
        try lease?.confirm()
        // Where the feed wins, renamed accounts are followed first (``AccountRenames``). (Not in a
        // dry run: its one transaction is the session's, a rename would wait for it.)
        let follows = settings.mergePolicy == .objectTrump && !settings.dryRun
        do {
            return try save(prepared, catchUp: catchUp, following: follows, in: session)
        } catch let wanted as AccountRenames.Wanted {
            try accounts.rename(wanted)
            return try save(prepared, catchUp: catchUp, following: false, in: session)
        }
    }

    /// One save of the page; `following`: renamed accounts are checked in it first, and
    /// ``AccountRenames/Wanted`` is thrown (the save rolled back) when one must be renamed.
    func save(_ prepared: PreparedPage, catchUp: Bool, following: Bool, in session: ImportSession) throws -> (PreparedPage, ImportResult) {
        var page = prepared
        let records = { (context: ObjectContext) in
            if following { try self.accounts.check(prepared.page, in: context) }
            page = prepared.excluding(try Catalog.exclusions(for: prepared.page, in: context))
            return [AnyImportRecords(page.photographers), AnyImportRecords(page.photos), AnyImportRecords(page.tags)]
        }
        if settings.dryRun {
            let result = try session.save(preparing: records)
            return (page, result)  // (page as the save left it: read after it)
        }
        let calls = source.budget?.unrecorded() ?? []
        let result = try session.save(preparing: records, finishing: { context, result in
            let summary = counted(page, catchUp: catchUp, in: session, pending: result).summary
            try Catalog.record(runRecord, summary, calls: calls, key: source.budget?.fingerprint, in: context)
        })
        source.budget?.markRecorded(calls.count)
        return (page, result)
    }

    /// The run's tally and summary once `page` is counted (`pending`: its save, not yet committed).
    func counted(_ page: PreparedPage, catchUp: Bool, in session: ImportSession, pending: ImportResult?)
        -> (tally: WalkTally, summary: FetchSummary)
    {
        var tally = self.tally
        tally.add(page, backfill: catchUp)
        var summary = tally.summary(session, pending: pending)
        summary.photographersRenamed = accounts.renamed
        if let headFacts { (summary.pagesSkippedKnown, summary.gap) = headFacts }
        return (tally, summary)
    }
}
