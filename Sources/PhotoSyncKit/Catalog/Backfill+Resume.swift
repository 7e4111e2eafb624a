import PhotoFeed

extension Backfill {
    /// The page where the catch up resumes (a search: page 1 of the uploads up to the anchor),
    /// checked against the anchor (see ``misplaces(_:asked:)``): a misplaced page sends the walk a
    /// page back, each request counted. Nil when `calls` ran out first: the plan then resumes at
    /// the page reached.
    mutating func resumePoint(
        from source: FeedSource, perPage: Int, within calls: Int
    ) throws -> (number: Int, page: FeedPage, calls: Int)? {
        var number = source.maxUploadDate != nil ? 1 : resumePage(perPage: perPage)
        for call in 1...max(1, calls) {
            let page = try source.page(number)
            if !misplaces(page, asked: number) || number == 1 { return (number, page, call) }
            number = page.page != number ? max(1, min(number - 1, page.pages)) : number - 1
        }
        offset = (number - 1) * perPage
        return nil
    }
}
