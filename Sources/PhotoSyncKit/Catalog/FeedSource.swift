import Foundation
import PhotoFeed

/// Pages of the feed: one HTTP GET and one decode per page, retried on the API's temporary errors.
struct FeedSource: Sendable {
    let settings: FetchSettings
    let client: CurlHTTPClient
    /// Asked before every request; nil for a `file://` feed, which is no API call.
    let budget: APIBudget?
    /// A signal recorded here abandons the request in flight (the fetch's watch).
    let interruption: InterruptionWatch

    /// With `--search`: only photos uploaded at or after this time (the query's mark, see
    /// ``SourceHistory/searchFrom``).
    var minUploadDate: Date?
    /// With `--search`: only photos uploaded at or before this time, while a cut walk of the query
    /// is finished (see ``Backfill``).
    var maxUploadDate: Date?

    init(settings: FetchSettings, budget: APIBudget? = nil, interruption: InterruptionWatch = InterruptionWatch()) {
        (self.settings, self.budget, self.interruption) = (settings, budget, interruption)
        var configuration = HTTPClientConfiguration()
        configuration.timeout = settings.timeout
        configuration.connectTimeout = min(10, settings.timeout)
        configuration.retries = settings.retries
        configuration.userAgent = "photosync/\(PhotoSyncVersion.current)"
        configuration.caFile = settings.caFile
        // A cron fetch does not sleep through a long Retry-After; with --wait it does (capped).
        configuration.longestRetryAfter = settings.waitForLock ? nil : max(2 * settings.timeout, 120)
        client = CurlHTTPClient(configuration: configuration)
    }

    /// The source a run records: the endpoint (without credentials or query), the API method and a
    /// search's terms, so each query keeps its own history.
    var identity: String {
        var endpoint = settings.endpoint
        if var components = URLComponents(string: settings.endpoint) {
            (components.user, components.password, components.query, components.fragment) = (nil, nil, nil, nil)
            endpoint = components.string ?? endpoint
        }
        let terms = settings.search?.parameters.map { " \($0.name)=\(FeedRequest.percentEncoded($0.value))" } ?? []
        return endpoint + " " + request(page: 1).method + terms.joined()
    }

    /// The source as photos record it and `list --source` names it: `recent` for the recent feed,
    /// `search` and the terms as sent for a search (`search tags=cats`); the endpoint is left out.
    var label: String {
        guard let search = settings.search else { return "recent" }
        return (["search"] + search.parameters.map { "\($0.name)=\($0.value)" }).joined(separator: " ")
    }

    /// The label of the source whose ``identity`` is `identity` (for runs recorded before labels
    /// were needed): the method and the percent-encoded terms follow the endpoint.
    static func label(ofIdentity identity: String) -> String {
        let words = identity.split(separator: " ", omittingEmptySubsequences: false)
        guard let method = words.lastIndex(where: { $0.hasPrefix("flickr.photos.") }), words[method] == "flickr.photos.search" else {
            return "recent"
        }
        let terms = words[(method + 1)...].map { String($0).removingPercentEncoding ?? String($0) }
        return (["search"] + terms).joined(separator: " ")
    }

    /// A `file://` endpoint is one response document: no paging.
    var isSingleDocument: Bool { Self.isFile(settings.endpoint) }

    static func isFile(_ endpoint: String) -> Bool { endpoint.lowercased().hasPrefix("file:") }

    /// Page `number`, decoded. API codes 105/106 are retried like a 5xx, with the same back-off.
    ///
    /// A signal recorded on `interruption` abandons the request in flight,
    /// or the wait before a retry, and throws `.interrupted`; so does the fetch's deadline
    /// (`--max-time`), throwing `.timeLimit`.
    func page(_ number: Int) throws(PhotoSyncError) -> FeedPage {
        try call(url(for: number), about: "page \(number)") { body throws(FeedError) in
            try FeedDecoder.decode(body).redactingEchoes(of: settings.apiKey, in: body)
        }
    }

    /// One API call (`what` names it in messages), spent from the budget and retried as a page is.
    func call<T>(_ url: String, about what: String, decode: ([UInt8]) throws(FeedError) -> T) throws(PhotoSyncError) -> T {
        let (deadline, interruption) = (settings.deadline, interruption)
        let interrupted = { @Sendable in interruption.signal != nil || deadline?.hasPassed == true }
        var attempt = 1
        while true {
            do {
                let response = try client.get(
                    url, allowFileScheme: isSingleDocument, isCancelled: interrupted,
                    willRetry: { retry, failure, delay in reportRetry(what, retry, of: settings.retries, "\(failure)", delay) }
                ) {
                    guard case .failure(let refusal)? = budget?.spend() else { return nil }
                    return refusal.message
                }
                return try decode(response.body)
            } catch let error as FeedError where error.isTemporary && attempt <= settings.retries {
                let delay = client.configuration.backoff.delay(forAttempt: attempt, retryAfter: nil)
                reportRetry(what, attempt, of: settings.retries, "\(error)", delay)
                guard CurlHTTPClient.sleepThread(delay, unless: interrupted) else { throw stopReason() }
                attempt += 1
            } catch HTTPError.cancelled {
                throw stopReason()
            } catch {
                throw PhotoSyncError.from(error, about: what, keySource: settings.apiKeySource)
            }
        }
    }

    /// A warning line for each retry (stderr unless `--quiet`, and the log file): which retry,
    /// why, and how long it waits, so a slow network is not silence.
    private func reportRetry(_ what: String, _ retry: Int, of retries: Int, _ reason: String, _ delay: Double) {
        Console.notice("\(what): \(reason); retry \(retry) of \(retries) in \(String(format: "%.1f", delay)) s")
    }

    /// Why the request was abandoned: a signal, else the deadline (SIGINT if neither is seen any more).
    func stopReason() -> PhotoSyncError {
        if interruption.signal == nil, let deadline = settings.deadline, deadline.hasPassed { return deadline.exceeded }
        return .interrupted(signal: interruption.signal ?? SIGINT)
    }

    private func url(for page: Int) -> String {
        if isSingleDocument { return settings.endpoint }
        return request(page: page).url
    }

    private func request(page: Int) -> FeedRequest {
        FeedRequest(
            endpoint: settings.endpoint, apiKey: settings.apiKey ?? "", perPage: settings.perPage, page: page,
            search: settings.search, minUploadDate: minUploadDate.map { Int($0.timeIntervalSince1970) },
            maxUploadDate: maxUploadDate.map { Int($0.timeIntervalSince1970.rounded(.up)) })
    }
}
