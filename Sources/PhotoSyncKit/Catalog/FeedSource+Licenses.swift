import Foundation
import PhotoFeed

extension FeedSource {
    /// `flickr.photos.licenses.getInfo`: every license the API knows, one request (counted against
    /// the API budget like a page; the HTTP client retries as for pages).
    func licenses() throws(PhotoSyncError) -> [FeedLicense] {
        let (deadline, interruption) = (settings.deadline, interruption)
        let request = FeedRequest(endpoint: settings.endpoint, apiKey: settings.apiKey ?? "", perPage: settings.perPage, page: 1)
        do {
            let response = try client.get(
                request.licensesURL, allowFileScheme: false,
                isCancelled: { @Sendable in interruption.signal != nil || deadline?.hasPassed == true },
                willRetry: { retry, failure, delay in
                    Console.notice("licenses: \(failure); retry \(retry) of \(settings.retries) in \(String(format: "%.1f", delay)) s")
                }
            ) {
                guard case .failure(let refusal)? = budget?.spend() else { return nil }
                return refusal.message
            }
            return try LicenseList.decode(response.body)
        } catch HTTPError.cancelled {
            throw stopReason()
        } catch {
            throw PhotoSyncError.from(error, page: 1, keySource: settings.apiKeySource)
        }
    }
}
