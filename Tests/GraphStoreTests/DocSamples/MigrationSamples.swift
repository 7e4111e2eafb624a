import GraphStore

// The code samples of Migration.md and PostgreSQL.md, compiled (see GettingStartedSamples.swift).

struct MigrationSamples {
    // doc: Migration.md #2
    final class PhotoV1: ManagedObject {
        override class var entityName: String { "Photo" }
        @Attribute(.unique) var unique = ""
    }
    // end doc

    // doc: Migration.md #1
    final class Book: ManagedObject {
        override class var renamedFrom: String? { "Volume" }
        @Attribute(.unique) var isbn = ""
        @Attribute(.renamed(from: "title")) var caption = ""
        @ToOne(deleteRule: .nullify, .renamed(from: "author")) var writer: Writer?
    }
    // end doc

    final class Writer: ManagedObject {
        @ToMany(inverse: \Book.$writer) var books: [Book]
    }

    func openShared(_ model: ManagedObjectModel) throws { // scaffold
        // doc: PostgreSQL.md #1
        let container = try PersistentContainer(model: model, location: .postgres("postgresql://sync@db.example:5432/catalog"))
        // end doc
        _ = container
    }
}
