import Foundation
import PhotoFeed

/// Flickr's size suffixes (`url_l` is size `l`), in a preference list: the first size a photo has
/// a URL for is downloaded.
enum ImageSize {
    /// What the feed gives today: `url_l`.
    static let defaultPreference = ["l"]
    /// Flickr's suffixes; the feed's `extras` name them `url_<suffix>`.
    static let known: Set<String> = ["sq", "q", "t", "s", "n", "w", "m", "z", "c", "l", "h", "k", "3k", "4k", "5k", "6k", "o"]

    /// `o,k,h,l` as a list; an unknown suffix is refused (it would never match a URL).
    static func list(_ text: String) throws(SettingProblem) -> [String] {
        let sizes = text.split(separator: ",").map { String($0.trimmingCharacters(in: .whitespaces)).lowercased() }
        guard !sizes.isEmpty else { throw SettingProblem("expected a comma-separated list of size suffixes such as o,k,h,l") }
        if let unknown = sizes.first(where: { !known.contains($0) }) {
            throw SettingProblem("unknown size \"\(unknown)\" (known: \(known.sorted().joined(separator: ",")))")
        }
        return sizes
    }

    /// The first of `preference` the photo has a URL for, with that URL: `l` is the feed's own
    /// `url_l` (`imageURL`), the others come from the sizes the feed gave (issue 25's `sizes`).
    static func choose(from preference: [String], imageURL: String, sizes: [PhotoSize]) -> (label: String, url: String)? {
        for label in preference {
            if label == "l", !imageURL.isEmpty { return (label, imageURL) }
            if let size = sizes.first(where: { $0.suffix == label }) { return (label, size.url) }
        }
        return nil
    }
}
