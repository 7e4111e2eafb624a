import Foundation

extension Gallery {
    /// `/api/photos`: `list --format json` with the same options (`q` is `--search`), through the
    /// same ``PhotoListRequest``.
    func apiPhotos(_ items: [String: String]) throws -> HTTPReply {
        var query = ListQuery(photographer: items["photographer"])
        (query.search, query.source) = (items["q"] ?? items["search"], items["source"])
        if let sort = items["sort"] {
            guard let value = ListSort(rawValue: sort) else { throw GalleryProblem.badRequest("sort is title, uploaded or id") }
            query.sort = value
        }
        query.limit = try number(items["limit"], "limit", atLeast: 1)
        query.offset = try number(items["offset"], "offset", atLeast: 0)
        let since = try time(items["since"], "since"), until = try time(items["until"], "until")
        if let since, let until, since.first > until.last { throw GalleryProblem.badRequest("since is after until: no photo can match") }
        (query.since, query.until) = (since?.first, until?.last)
        return .json(try PhotoListRequest(query: query, filesFolder: filesFolder).render(in: catalog, as: .json))
    }

    /// `/api/photographers`: `photographers --format json` (`sort`, `limit`).
    func apiPhotographers(_ items: [String: String]) throws -> HTTPReply {
        guard let sort = PhotographerSort(rawValue: items["sort"] ?? "name") else { throw GalleryProblem.badRequest("sort is name or photos") }
        let photographers = try catalog.photographers(sort: sort, limit: try number(items["limit"], "limit", atLeast: 1))
        return .json(try PhotographerListOutput.render(photographers, as: .json))
    }

    /// `/api/status`: `status --format json`.
    func apiStatus() throws -> HTTPReply {
        let status = try catalog.status(recentRuns: StatusCommand.recentRuns)
        return .json(try StatusOutput.render(status, as: .json, databasePath: catalogName))
    }

    private func number(_ text: String?, _ name: String, atLeast minimum: Int) throws -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), value >= minimum else { throw GalleryProblem.badRequest("\(name) must be a whole number of at least \(minimum)") }
        return value
    }

    private func time(_ text: String?, _ name: String) throws -> TimeBound? {
        guard let text else { return nil }
        guard let bound = TimeBound(argument: text) else {
            throw GalleryProblem.badRequest("\(name): expected an ISO 8601 time, YYYY-MM-DD, a duration such as 7d, today or yesterday")
        }
        return bound
    }
}
