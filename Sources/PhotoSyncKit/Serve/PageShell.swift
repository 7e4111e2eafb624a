/// The frame every page shares: head, header with navigation and search, the body, a footer.
/// No script, no external resource.
enum PageShell {
    /// `title` is feed text (escaped here); `body` is HTML built with ``HTML``.
    static func render(title: String, body: String, search: String = "") -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTML.text(title)) · photosync</title>
        <link rel="stylesheet" href="/static/gallery.css">
        </head>
        <body>
        <header>
        <a class="home" href="/">photosync</a>
        <nav><a href="/">Photographers</a><a href="/runs">Fetch runs</a></nav>
        <form class="search" action="/search" method="get" role="search">
        <input type="search" name="q" value="\(HTML.text(search))" aria-label="Search titles" placeholder="Search titles">
        <button type="submit">Search</button>
        </form>
        </header>
        <main>
        \(body)
        </main>
        <footer>A read-only view of the catalog.</footer>
        </body>
        </html>

        """
    }

    /// The link to the next page, or nothing on the last one.
    static func next(_ href: String?) -> String {
        guard let href else { return "" }
        return "<nav class=\"pager\" aria-label=\"Pages\"><a rel=\"next\" href=\"\(href)\">Next page →</a></nav>"
    }

    /// The error page: a status line, a sentence, nothing from a stack.
    static func error(_ status: Int, _ message: String) -> HTTPReply {
        .html(status, render(title: HTTPReply.reason(status), body: "<h1>\(status) \(HTTPReply.reason(status))</h1>\n<p>\(HTML.text(message))</p>"))
    }
}
