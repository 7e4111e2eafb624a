import Foundation

extension Gallery {
    /// `/photos/{id}`: the photo large and every field `show` prints.
    func photoPage(id: String) throws -> HTTPReply {
        guard let details = try catalog.photo(id: id) else { throw GalleryProblem.notFound("No photo with id \(id).") }
        let listing = details.listing
        let grid = try grid(for: [listing])
        let picture = grid.source(listing).map { "<img src=\"\($0)\" alt=\"\(HTML.text(listing.title))\">" }
            ?? "<div class=\"placeholder\">\(HTML.text(listing.title))</div>"
        var fields = [
            ("id", HTML.text(listing.id)), ("title", HTML.text(listing.title)), ("subtitle", HTML.text(listing.subtitle)),
            ("photographer", "<a href=\"/photographers/\(HTML.segment(listing.photographer))\">\(HTML.text(listing.photographer))</a>"),
            ("owner id", HTML.text(details.ownerID)), ("uploaded", listing.uploaded.map(timestamp) ?? "unknown"),
            ("image", link(listing.imageURL)), ("page", link(details.pageURL)),
        ]
        if let file = grid.files[listing.id] {
            fields.append(("file", "\(HTML.text(file.path)) (\(file.size) bytes, sha256 \(HTML.text(file.sha256)))"))
        }
        let rows = fields.map { "<dt>\($0.0)</dt><dd>\($0.1)</dd>" }.joined(separator: "\n")
        let body = """
            <h1>\(HTML.text(listing.title))</h1>
            <figure class="photo">\(picture)</figure>
            <dl class="fields">
            \(rows)
            </dl>
            """
        return .html(200, PageShell.render(title: listing.title, body: body))
    }

    /// An http(s) URL as a link; anything else as text.
    private func link(_ url: String) -> String {
        guard let href = HTML.externalURL(url) else { return HTML.text(url) }
        return "<a href=\"\(href)\" rel=\"noopener noreferrer\">\(HTML.text(url))</a>"
    }

    /// `/runs`: the fetch runs, as `status` lists them.
    func runsPage() throws -> HTTPReply {
        let status = try catalog.status(recentRuns: 100)
        let rows = status.runs.map { run in
            let cells = [timestamp(run.started), StatusOutput.outcome(run), String(run.summary.pages), String(run.summary.received),
                         String(run.summary.inserted), String(run.summary.updated), run.error.map(Secrets.redact) ?? ""]
            return "<tr>" + cells.map { "<td>\(HTML.text($0))</td>" }.joined() + "</tr>"
        }
        let table = rows.isEmpty ? "<p>No fetches yet.</p>" : """
            <table><thead><tr><th>Started</th><th>Outcome</th><th>Pages</th><th>Received</th><th>Inserted</th><th>Updated</th><th>Error</th></tr></thead>
            <tbody>
            \(rows.joined(separator: "\n"))
            </tbody></table>
            """
        let body = """
            <h1>Fetch runs</h1>
            <p class="muted">\(status.photos) photos by \(status.photographers) photographers · <a href="/api/status">JSON</a></p>
            \(table)
            """
        return .html(200, PageShell.render(title: "Fetch runs", body: body))
    }
}
