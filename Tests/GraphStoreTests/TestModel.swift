import Foundation
import GraphStore

final class Author: ManagedObject {
    @Attribute(.unique) var name = ""
    @Attribute var country: String? = nil
    @Attribute(.transient) var scratch = 0
    @ToMany(inverse: \Book.$author, deleteRule: .cascade) var books: [Book]
}

final class Book: ManagedObject {
    @Attribute(.unique) var isbn = ""
    @Attribute var title = ""
    @Attribute var pages = 0
    @Attribute var published: Date? = nil
    @ToOne(deleteRule: .nullify) var author: Author?
}

/// A fresh store file per test, in its own temporary directory.
struct TemporaryStore {
    let directory: URL
    var path: String { directory.appendingPathComponent("store.sqlite").path }

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("graphstore-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func open(version: Int = 1, entities: [ManagedObject.Type] = [Author.self, Book.self]) throws -> PersistentContainer {
        try PersistentContainer(model: ManagedObjectModel(version: version, entities: entities), location: .file(path))
    }
}
