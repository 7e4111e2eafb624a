/// Photo cards: the downloaded file scaled by the browser (no image processing library: the
/// smallest downloaded size is the thumbnail), Flickr's URL only when remote images are on, else
/// the title on a placeholder.
struct PhotoGrid {
    /// Verified files by photo id.
    var files: [String: VerifiedFile]
    var remoteImages: Bool

    /// The image's `src`, already escaped, or nil for a placeholder.
    func source(_ photo: PhotoListing) -> String? {
        if let file = files[photo.id] {
            return "/files/" + file.path.split(separator: "/").map { HTML.segment(String($0)) }.joined(separator: "/")
        }
        return remoteImages ? HTML.externalURL(photo.imageURL) : nil
    }

    /// One thumbnail (or placeholder) for `photo`, alt text from its title.
    func thumbnail(_ photo: PhotoListing) -> String {
        guard let src = source(photo) else {
            return "<span class=\"thumb placeholder\" role=\"img\" aria-label=\"\(HTML.text(photo.title))\">\(HTML.text(photo.title))</span>"
        }
        return "<img class=\"thumb\" src=\"\(src)\" alt=\"\(HTML.text(photo.title))\" loading=\"lazy\">"
    }

    func render(_ photos: [PhotoListing], showPhotographer: Bool) -> String {
        guard !photos.isEmpty else { return "<p class=\"muted\">No photos.</p>" }
        let cards = photos.map { photo in
            let by = showPhotographer ? "<br><span class=\"muted\">\(HTML.text(photo.photographer))</span>" : ""
            return "<li class=\"card\"><a href=\"/photos/\(HTML.segment(photo.id))\">\(thumbnail(photo))"
                + "<span class=\"caption\">\(HTML.text(photo.title))\(by)</span></a></li>"
        }
        return "<ul class=\"grid\">\n" + cards.joined(separator: "\n") + "\n</ul>"
    }
}
