/// `flickr.photos.getInfo` response bodies → one photo, under the rules a feed's photos follow.
/// Pure and synchronous like ``FeedDecoder``.
public enum PhotoInfoDecoder {
    /// The photo; `FeedError.api` for `stat: fail` (code 1: deleted, code 2: no longer visible).
    /// - Throws: `.malformed` when the body is not a getInfo answer, or its photo is unusable.
    public static func decode(_ body: [UInt8]) throws(FeedError) -> FeedPhoto {
        let json = try JSONPUnwrapper.jsonRange(in: body)
        try UTF8Check.validate(body, json)
        let answer: Answer
        do {
            answer = try body.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
                var reader = JSONReader(buffer, range: json)
                return try Answer.read(&reader)
            }
        } catch {
            throw .malformed(DecodingFailure.message(error, body: body, json: json))
        }
        if answer.stat == .string("fail") {
            let message = answer.message?.text?.trimmed ?? ""
            throw .api(code: answer.code?.integer ?? 0, message: TextCap.cut(message.isEmpty ? "(no message)" : message, toBytes: 256))
        }
        guard let item = answer.photo else { throw .malformed("getInfo: missing \"photo\" object") }
        switch PhotoItemRules.photo(from: item) {
        case .success(let photo): return photo
        case .failure(let reason): throw .malformed("getInfo: \(reason.text)")
        }
    }

    private struct Answer {
        var stat: LenientScalar?
        var code: LenientScalar?
        var message: LenientScalar?
        var photo: RawPhotoItem?

        static func read(_ reader: inout JSONReader) throws(JSONSyntaxError) -> Answer {
            var answer = Answer()
            guard try reader.nextKind() == .object else {
                try reader.skipValue()
                return answer
            }
            try reader.forEachMember { reader, key throws(JSONSyntaxError) in
                switch key {
                case "stat": answer.stat = try reader.readScalar()
                case "code": answer.code = try reader.readScalar()
                case "message": answer.message = try reader.readScalar()
                case "photo": answer.photo = try RawPhotoInfo.read(&reader)
                default: try reader.skipValue()
                }
            }
            try reader.expectEnd()
            return answer
        }
    }
}
