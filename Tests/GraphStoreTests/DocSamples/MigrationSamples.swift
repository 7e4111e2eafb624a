import GraphStore

// The code samples of Migration.md and PostgreSQL.md, compiled (see GettingStartedSamples.swift).

struct MigrationSamples {
    // doc: Migration.md #1
    final class PhotoV1: ManagedObject {
        override class var entityName: String { "Photo" }
        @Attribute(.unique) var unique = ""
    }
    // end doc

    func openShared(_ model: ManagedObjectModel) throws { // scaffold
        // doc: PostgreSQL.md #1
        let container = try PersistentContainer(model: model, location: .postgres("postgresql://sync@db.example:5432/catalog"))
        // end doc
        _ = container
    }
}
