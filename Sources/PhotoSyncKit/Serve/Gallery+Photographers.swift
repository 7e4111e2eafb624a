import Foundation

extension Gallery {
    /// `/`: photographers with their counts and newest thumbnails, by name or by count, a page at a
    /// time after the name `after`.
    func indexPage(sort: String?, after: String?) throws -> HTTPReply {
        guard let order = PhotographerSort(rawValue: sort ?? "name") else { throw GalleryProblem.badRequest("sort is name or photos") }
        let all = try catalog.photographers(sort: order, limit: nil)
        var start = 0
        if let after {
            guard let index = all.firstIndex(where: { $0.name == after }) else { throw GalleryProblem.badRequest("the page link is not valid") }
            start = index + 1
        }
        let shown = all[start...].prefix(Self.pageSize)
        let cards = try shown.map(photographerCard)
        let next = start + Self.pageSize < all.count ? shown.last.map { "/?sort=\(order.rawValue)&amp;after=\(HTML.query($0.name))" } : nil
        let other = order == .name ? "<a href=\"/?sort=photos\">most photos first</a>" : "<a href=\"/?sort=name\">by name</a>"
        let body = """
            <h1>Photographers</h1>
            <p class="muted">\(all.count) photographers, \(order == .name ? "by name" : "most photos first") · \(other)</p>
            <ul class="people">
            \(cards.joined(separator: "\n"))
            </ul>
            \(PageShell.next(next))
            """
        return .html(200, PageShell.render(title: "Photographers", body: body))
    }

    private func photographerCard(_ photographer: PhotographerListing) throws -> String {
        let newest = try catalog.galleryPage(ListQuery(photographer: photographer.name), after: nil, limit: 4)
        let grid = try grid(for: newest)
        let href = "/photographers/\(HTML.segment(photographer.name))"
        let strip = newest.map { "<a href=\"/photos/\(HTML.segment($0.id))\">\(grid.thumbnail($0))</a>" }.joined()
        return """
            <li class="card"><h2><a href="\(href)">\(HTML.text(photographer.name))</a></h2>\
            <p class="muted">\(photographer.photos) photo\(photographer.photos == 1 ? "" : "s")</p>\
            <div class="strip">\(strip)</div></li>
            """
    }

    /// `/photographers/{name}`: their photos, newest first, a page at a time.
    func photographerPage(name: String, after: String?) throws -> HTTPReply {
        guard try catalog.hasPhotographer(named: name) else { throw GalleryProblem.notFound("No photographer named “\(name)”.") }
        let (photos, next) = try photoPage(ListQuery(photographer: name), after: after)
        let body = """
            <h1>\(HTML.text(name))</h1>
            <p class="muted"><a href="/api/photos?photographer=\(HTML.query(name))&amp;sort=uploaded">JSON</a></p>
            \(try grid(for: photos).render(photos, showPhotographer: false))
            \(PageShell.next(next.map { "/photographers/\(HTML.segment(name))?after=\(HTML.query($0))" }))
            """
        return .html(200, PageShell.render(title: name, body: body))
    }

    /// `/search?q=`: photos whose title or subtitle contains the text as `list --search` matches it.
    func searchPage(_ text: String?, after: String?) throws -> HTTPReply {
        guard let text, !text.isEmpty else {
            return .html(200, PageShell.render(title: "Search", body: "<h1>Search</h1>\n<p class=\"muted\">Type words from a title above.</p>"))
        }
        var query = ListQuery()
        query.search = text
        let (photos, next) = try photoPage(query, after: after)
        let body = """
            <h1>Photos matching “\(HTML.text(text))”</h1>
            \(try grid(for: photos).render(photos, showPhotographer: true))
            \(PageShell.next(next.map { "/search?q=\(HTML.query(text))&amp;after=\(HTML.query($0))" }))
            """
        return .html(200, PageShell.render(title: "Search: \(text)", body: body, search: text))
    }
}
