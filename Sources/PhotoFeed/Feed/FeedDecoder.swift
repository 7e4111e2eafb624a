/// Flickr `photos.getRecent` response bodies → `FeedPage`. Pure and synchronous: no I/O,
/// no clock, so it can be fed fixtures and hostile bodies alike. A body that is not a
/// feed throws; single unusable photos are reported in `FeedPage.skipped` instead.
public enum FeedDecoder {
    public static func decode(_ body: [UInt8]) throws(FeedError) -> FeedPage {
        let json = try JSONPUnwrapper.jsonRange(in: body)
        try UTF8Check.validate(body, json)
        let photos = try photos(in: try response(in: body, json))
        let counters = try PageCounters(page: photos.page, pages: photos.pages, perPage: photos.perPage, total: photos.total)
        let (kept, skipped, notes) = PageAssembler.assemble(photos.items)
        return FeedPage(
            page: counters.page, pages: counters.pages, perPage: counters.perPage, total: counters.total,
            photos: kept, skipped: skipped, notes: notes
        )
    }

    private static func response(in body: [UInt8], _ json: Range<Int>) throws(FeedError) -> RawResponse {
        let response: RawResponse?
        do {
            // The reader borrows the body's storage only inside this call; what it returns is copied out.
            response = try body.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
                var reader = JSONReader(buffer, range: json)
                return try RawResponse.read(&reader)
            }
        } catch {
            throw .malformed(DecodingFailure.message(error, body: body, json: json))
        }
        guard let response else { throw .malformed("top-level JSON value is not an object") }
        return response
    }

    /// `stat` is checked first: "fail" is an API error whatever else the body holds;
    /// a missing `stat` is accepted when `photos` is there.
    private static func photos(in response: RawResponse) throws(FeedError) -> RawPhotos {
        switch response.stat {
        case .string("fail"):
            throw apiError(response)
        case .string("ok"), nil:
            if response.photosIsNotObject { throw .malformed("\"photos\" is not an object") }
            guard let photos = response.photos else { throw .malformed("missing \"photos\" object") }
            if photos.photoIsNotArray { throw .malformed("\"photos.photo\" is not an array") }
            return photos
        case let other?:
            throw .malformed("\"stat\" is \(other.shown), expected \"ok\" or \"fail\"")
        }
    }

    /// A failure whose `code` is missing or not a number reads as code 0, which is never retried.
    private static func apiError(_ response: RawResponse) -> FeedError {
        let message = response.message?.text?.trimmed ?? ""
        return .api(code: response.code?.integer ?? 0, message: message.isEmpty ? "(no message)" : message)
    }
}
