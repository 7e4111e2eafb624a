import Foundation

/// One element of a `flickr.photos.getRecent` page as the model test sends it.
struct ModelItem: Sendable, Equatable, CustomStringConvertible {
    var id: String
    var ownerID: String
    var ownerName: String
    var title: String
    var text: String
    var uploaded: Int?
    var imageURL: String

    /// An id the feed decoder refuses (not ASCII letters or digits): the item counts as skipped.
    var isUsable: Bool { id.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) } }

    /// The photo the catalog should hold for this item, by the feed's title rules (written here
    /// again: a blank title borrows the description, "Unknown" when both are blank).
    var photo: ModelPhoto {
        let (title, subtitle) = !title.isEmpty ? (title, text) : !text.isEmpty ? (text, "") : ("Unknown", "")
        return ModelPhoto(title: title, subtitle: subtitle, imageURL: imageURL,
                          uploaded: uploaded.map { Date(timeIntervalSince1970: TimeInterval($0)) }, photographer: ownerName)
    }

    /// The item as JSON, written by hand (JSONSerialization was a tenth of the test's time).
    var json: String {
        let uploaded = uploaded.map { #","dateupload":"\#($0)""# } ?? ""
        return #"{"id":\#(Self.quoted(id)),"owner":\#(Self.quoted(ownerID)),"ownername":\#(Self.quoted(ownerName)),"#
            + #""title":\#(Self.quoted(title)),"description":{"_content":\#(Self.quoted(text))},"url_l":\#(Self.quoted(imageURL)),"#
            + #""server":"65535","secret":"abc","ispublic":1\#(uploaded)}"#
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    var description: String {
        #"\#(id) \#(ownerName)(\#(ownerID)) "\#(title)" "\#(text)" \#(uploaded.map(String.init) ?? "nil") \#(imageURL.suffix(6))"#
    }
}

/// One photo as the model stores it (and as the catalog lists it).
struct ModelPhoto: Sendable, Equatable {
    var title: String
    var subtitle: String
    var imageURL: String
    var uploaded: Date?
    var photographer: String
}

/// Pages of one fetch as JSON, page `n` (1-based) reporting `count` pages in all.
enum ModelFeed {
    static func page(_ number: Int, of count: Int, _ items: [ModelItem]) -> String {
        #"{"photos":{"page":\#(number),"pages":\#(count),"perpage":100,"total":\#(count * 100),"photo":["#
            + items.map(\.json).joined(separator: ",") + #"]},"stat":"ok"}"#
    }
}
