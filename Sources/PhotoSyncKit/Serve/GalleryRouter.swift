import Foundation

/// From a request head to a reply: the method and token checks, the routes, the error pages and
/// the security headers. Every catalog read runs on ``CatalogThreads``.
struct GalleryRouter: Sendable {
    let gallery: Gallery
    let token: AccessToken
    let threads: CatalogThreads
    /// One line per failed request (the log), never a stack.
    let log: @Sendable (String) -> Void

    func respond(_ head: HTTPRequestHead) async -> HTTPReply {
        var reply: HTTPReply
        if head.method != "GET" && head.method != "HEAD" {
            reply = PageShell.error(405, "This gallery is read-only: only GET and HEAD.")
            reply.set("Allow", "GET, HEAD")
        } else {
            switch token.check(head) {
            case .denied:
                reply = PageShell.error(401, "Open the link with the token that photosync serve printed.")
            case .redirect(let location):
                reply = HTTPReply(status: 302)
                reply.headers += [("Location", location), ("Set-Cookie", token.cookie)]
            case .allowed:
                reply = await threads.run { [self] in self.routed(head) }
            }
        }
        SecurityHeaders.apply(to: &reply, remoteImages: gallery.remoteImages)
        return reply
    }

    private func routed(_ head: HTTPRequestHead) -> HTTPReply {
        do {
            return try route(head)
        } catch GalleryProblem.badRequest(let message) {
            return PageShell.error(400, message)
        } catch GalleryProblem.notFound(let message), PhotoSyncError.notFound(let message) {
            return PageShell.error(404, message)
        } catch where gallery.isStopping {
            return PageShell.error(503, "The server is stopping.")
        } catch {
            let message = (error as? PhotoSyncError)?.message ?? String(describing: error)
            log("\(head.method) \(Console.safeLine(head.path)): \(Console.safeLine(message))")
            return PageShell.error(500, "The catalog could not be read; the server's log says why.")
        }
    }

    private func route(_ head: HTTPRequestHead) throws -> HTTPReply {
        let (path, query) = (head.path, head.query)
        switch path {
        case "/": return try gallery.indexPage(sort: query["sort"], after: query["after"])
        case "/search": return try gallery.searchPage(query["q"], after: query["after"])
        case "/runs": return try gallery.runsPage()
        case "/api/photos": return try gallery.apiPhotos(query)
        case "/api/photographers": return try gallery.apiPhotographers(query)
        case "/api/status": return try gallery.apiStatus()
        case "/static/gallery.css":
            var reply = HTTPReply(status: 200, contentType: "text/css; charset=utf-8", body: Data(GalleryStyle.css.utf8))
            reply.set("Cache-Control", "private, max-age=3600")
            return reply
        default: break
        }
        if let name = segment(path, after: "/photographers/") { return try gallery.photographerPage(name: name, after: query["after"]) }
        if let id = segment(path, after: "/photos/") { return try gallery.photoPage(id: id) }
        if path.hasPrefix("/files/"), let folder = gallery.filesFolder,
           let file = FilePath.resolve(path.dropFirst("/files/".count), under: folder), let reply = FileReply.make(path: file, head: head) {
            return reply
        }
        throw GalleryProblem.notFound("Nothing here.")
    }

    /// The one percent-decoded segment after `prefix`, or nil.
    private func segment(_ path: String, after prefix: String) -> String? {
        guard path.hasPrefix(prefix) else { return nil }
        let raw = path.dropFirst(prefix.count)
        guard !raw.isEmpty, !raw.contains("/"), let value = String(raw).removingPercentEncoding, !value.contains("\0") else { return nil }
        return value
    }
}
