import Foundation
import GraphStore

// The code samples of Importing.md, compiled (see GettingStartedSamples.swift).

struct ImportingSample {
    // doc: Importing.md #1
    final class Photographer: ManagedObject {
        @Attribute(.unique) var name = ""
        @Attribute var ownerID = ""
        @ToMany(inverse: \Photo.$whoTook, deleteRule: .cascade, deletesOwnerWhenEmpty: true) var photos: [Photo]
    }

    final class Photo: ManagedObject {
        @Attribute(.unique) var unique = ""
        @Attribute(.indexed) var title = ""
        @Attribute var uploaded: Date? = nil
        @ToOne(deleteRule: .nullify) var whoTook: Photographer?
    }

    struct FeedItem { var id, title, ownerName, ownerID: String; var uploaded: Date? }

    /// One page of a feed as import records: each photo linked to its photographer's record.
    func records(_ items: [FeedItem]) -> (ImportRecords<Photographer>, ImportRecords<Photo>) {
        var photographers = ImportRecords(Photographer.self, key: \.$name)
        let ownerID = photographers.field(\.$ownerID)
        var photos = ImportRecords(Photo.self, key: \.$unique)
        let (title, uploaded, whoTook) = (photos.field(\.$title), photos.field(\.$uploaded), photos.link(\.$whoTook))
        for item in items {
            let owner = photographers.append(item.ownerName) { $0[ownerID] = item.ownerID }
            photos.append(item.id) { photo in
                photo[title] = item.title
                photo[uploaded] = item.uploaded
                photo[whoTook] = owner
            }
        }
        return (photographers, photos)
    }

    func run() throws { // scaffold
        let model = try ManagedObjectModel(version: 1, entities: [Photographer.self, Photo.self])
        let container = try PersistentContainer(model: model, location: .file("catalog.sqlite"))
        let pages: [[FeedItem]] = [[FeedItem(id: "1", title: "Harbour", ownerName: "Ana Lima", ownerID: "10@N01", uploaded: nil)]]
        let photoCounts = try container.importing(mergePolicy: .objectTrump) { session in
            for page in pages {
                let (photographers, photos) = records(page)
                let result = try session.save(photographers, photos)   // one transaction
                print(result.changes)                                  // a ChangeSet: the IDs inserted, updated, deleted
            }
            return session.counts(Photo.self)   // inserted, updated, unchanged, repeated, deleted
        }
    // end doc
        _ = photoCounts
    }
}

struct ImportingSetsSample {
    // doc: Importing.md #2
    final class Tag: ManagedObject {
        @Attribute(.unique) var name = ""
        @ToMany var photos: [TaggedPhoto]
    }

    final class TaggedPhoto: ManagedObject {
        @Attribute(.unique) var unique = ""
        @ToMany(inverse: \Tag.$photos) var tags: [Tag]
    }

    func run(_ container: PersistentContainer) throws { // scaffold
        var tags = ImportRecords(Tag.self, key: \.$name)
        var photos = ImportRecords(TaggedPhoto.self, key: \.$unique)
        let photoTags = photos.members(\.$tags)
        let (sea, fog) = (tags.append("sea"), tags.append("fog"))
        photos.append("1") { $0[photoTags] = [sea, fog] }   // exactly these two
        photos.append("2") { $0[photoTags] = [] }           // no tag at all
        photos.append("3")                                  // its pairs stay as they are
        let result = try container.importing(mergePolicy: .objectTrump) { session in
            try session.save(tags, photos)   // the rows, then the join rows, in one transaction
        }
    // end doc
        _ = result
    }
}
