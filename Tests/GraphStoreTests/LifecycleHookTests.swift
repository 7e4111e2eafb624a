import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

@Suite(.onTestThreads) struct LifecycleHookTests {
    private let entities: [ManagedObject.Type] = [Photographer.self, Album.self, Photo.self]

    @Test(arguments: [Location.file, .postgres])
    func awakeFromInsertRunsOnceAcrossAChildSave(_ location: Location) throws {
        let store = try TestStore(location, entities: entities)
        let log = HookLog()
        try HookLog.$current.withValue(log) {
            let parent = try store.open().newContext()
            let child = parent.newChildContext()
            let photo = child.insert(Photo.self)
            photo.title = "dusk"
            try child.save()
            try parent.save()
            #expect(log.count("awakeFromInsert") == 1)
            #expect(try store.reader().all(Photo.self).map(\.rating) == [1])  // the child's hook default reached the store
        }
    }

    @Test(arguments: [Location.file, .postgres])
    func awakeFromInsertOnceAndAwakeFromFetchOnFetch(_ location: Location) throws {
        let store = try TestStore(location, entities: entities)
        let log = HookLog()
        try HookLog.$current.withValue(log) {
            let context = try store.open().newContext()
            let photo = context.insert(Photo.self)
            photo.title = "sunset"
            #expect(photo.rating == 1)  // set in awakeFromInsert
            #expect(log.count("awakeFromInsert:Photo") == 1)
            try context.save()
            _ = try context.all(Photo.self)
            #expect(log.count("awakeFromInsert") == 1)
            #expect(log.count("awakeFromFetch") == 0)  // the context already holds it
            #expect(log.events == ["awakeFromInsert:Photo", "willSave:sunset", "didSave:sunset"])

            let reader = try store.reader()
            let fetched = try reader.all(Photo.self)
            #expect(fetched.map(\.rating) == [1])  // the hook's value was saved
            _ = try reader.all(Photo.self)
            #expect(log.count("awakeFromFetch:sunset") == 1)
            #expect(log.count("awakeFromInsert") == 1)
        }
    }

    @Test(arguments: [Location.file, .postgres])
    func willSaveForInsertedUpdatedAndDeletedAndChangesJoinTheSave(_ location: Location) throws {
        let store = try TestStore(location, entities: entities)
        let log = HookLog()
        try HookLog.$current.withValue(log) {
            let context = try store.open().newContext()
            for title in ["a", "b", "c"] { context.insert(Photo.self).title = title }
            try context.save()
            let photos = try context.all(Photo.self, sortBy: [.ascending(\.$title)])
            let before = log.events.count
            photos[0].rating = 5  // updated
            context.delete(photos[1])  // deleted
            context.insert(Photo.self).title = "d"  // inserted
            try context.save()
            let events = Array(log.events[before...])
            #expect(events.filter { $0.hasPrefix("willSave") }.sorted() == ["willSave:a", "willSave:b", "willSave:d"])
            #expect(!events.contains("willSave:c"))  // unchanged: no hook
            #expect(events.filter { $0.hasPrefix("didSave") }.sorted() == ["didSave:a", "didSave:d"])
        }
    }

    /// Deleting an album cascades to its photos; each photo's prepareForDeletion reads its to-ones
    /// (still set) and deletes its photographer when no live photo is left: that delete joins the save.
    @Test(arguments: Location.allCases)
    func prepareForDeletionOncePerObjectBeforeTearDownAndItsDeletesJoinTheSave(_ location: Location) throws {
        let store = try TestStore(location, entities: entities)
        let log = HookLog()
        try HookLog.$current.withValue(log) {
            do {
                let context = try store.open().newContext()
                let album = context.insert(Album.self)
                album.name = "A"
                let ana = context.insert(Photographer.self)
                ana.name = "Ana"
                let bo = context.insert(Photographer.self)
                bo.name = "Bo"
                for (title, by, inAlbum) in [("p1", ana, true), ("p2", ana, true), ("p3", bo, true), ("p4", bo, false)] {
                    let photo = context.insert(Photo.self)
                    photo.title = title
                    photo.photographer = by
                    if inAlbum { photo.album = album }
                }
                try context.save()
            }
            let context = try store.open().newContext()
            let album = try context.all(Album.self)[0]
            let bo = try context.all(Photographer.self, where: \.$name == "Bo")[0]
            let before = log.events.count
            context.delete(album)
            var changes: ChangeSet?
            context.onDidSave { changes = $0 }
            try context.save()
            let events = Array(log.events[before...])
            let prepared = events.filter { $0.hasPrefix("prepareForDeletion") }
            #expect(prepared.sorted() == [
                "prepareForDeletion:A",
                "prepareForDeletion:Ana",
                "prepareForDeletion:p1 album=A by=Ana",
                "prepareForDeletion:p2 album=A by=Ana",
                "prepareForDeletion:p3 album=A by=Bo",
            ])
            #expect(prepared.first == "prepareForDeletion:A")
            // Every object the save deletes gets willSave, cascade victims and hook deletions included.
            #expect(events.filter { $0.hasPrefix("willSave") }.sorted() == ["willSave:A", "willSave:Ana", "willSave:p1", "willSave:p2", "willSave:p3"])
            #expect(changes?.deleted(Photo.self).count == 3)
            #expect(changes?.deleted(Photographer.self).count == 1)
            #expect(bo.photos.map(\.title) == ["p4"])  // p3 left Bo's photos in memory

            let reader = try store.reader()
            #expect(try reader.all(Album.self).isEmpty)
            #expect(try reader.all(Photo.self).map(\.title) == ["p4"])
            let photographers = try reader.all(Photographer.self)
            #expect(photographers.map(\.name) == ["Bo"])
            #expect(photographers[0].photos.map(\.title) == ["p4"])
        }
    }

    @Test(arguments: Location.allCases)
    func validationFailureFailsTheSaveNamingObjectAndRule(_ location: Location) throws {
        let store = try TestStore(location, entities: entities)
        let context = try store.open().newContext()
        context.insert(Photo.self).title = "fine"
        let bad = context.insert(Photo.self)
        let error = #expect(throws: GraphStoreError.self) { try context.save() }
        guard case .validationFailed(let issues) = error else { Issue.record("expected validationFailed, got \(String(describing: error))"); return }
        #expect(issues.map(\.object) == [bad.objectID])
        #expect(issues.map(\.rule) == ["title must not be empty"])
        #expect(try store.reader().count(FetchRequest<Photo>()) == 0)
        #expect(context.hasChanges)
        bad.title = "fixed"
        try context.save()
        #expect(try store.reader().all(Photo.self, sortBy: [.ascending(\.$title)]).map(\.title) == ["fine", "fixed"])
    }

    @Test(arguments: [Location.file, .postgres])
    func validationRunsForUpdatesToo(_ location: Location) throws {
        let store = try TestStore(location, entities: entities)
        let context = try store.open().newContext()
        let photo = context.insert(Photo.self)
        photo.title = "x"
        try context.save()
        photo.title = ""
        let error = #expect(throws: GraphStoreError.self) { try context.save() }
        guard case .validationFailed(let issues) = error else { Issue.record("expected validationFailed, got \(String(describing: error))"); return }
        #expect(issues.map(\.object) == [photo.objectID])
        #expect(issues.map(\.rule) == ["title must not be empty"])
        #expect(try store.reader().all(Photo.self).map(\.title) == ["x"])
    }
}
