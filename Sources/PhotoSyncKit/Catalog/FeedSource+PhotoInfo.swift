import PhotoFeed

/// What `flickr.photos.getInfo` said of a photo.
enum PhotoInfoAnswer: Sendable {
    case found(FeedPhoto)
    /// Code 1 (photo not found: deleted) or 2 (permission denied: now private).
    case gone(GoneReason)
}

extension FeedSource {
    /// `flickr.photos.getInfo` for `id`: one API call, spent and retried as a page is (105 and 106
    /// again after a pause); any other API code than 1 and 2 is an error (69).
    func photoInfo(_ id: String) throws(PhotoSyncError) -> PhotoInfoAnswer {
        let request = FeedRequest(endpoint: settings.endpoint, apiKey: settings.apiKey ?? "", perPage: settings.perPage, page: 1)
        return try call(request.photoInfoURL(id), about: "photo \(id)") { body throws(FeedError) in
            do throws(FeedError) {
                return .found(try PhotoInfoDecoder.decode(body))
            } catch .api(code: 1, _) {
                return .gone(.deleted)
            } catch .api(code: 2, _) {
                return .gone(.private)
            } catch {
                throw error
            }
        }
    }
}
