import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// Opening a store checks the schema really in the file, not only the model snapshot stored in it.
@Suite(.onTestThreads) struct SchemaVerificationTests {
    private func seeded(_ location: Location) throws -> TemporaryStore {
        let store = try TemporaryStore(location)
        let context = try store.open().newContext()
        let book = context.insert(Book.self)
        book.isbn = "1"
        try context.save()
        return store
    }

    private func refusal(_ store: TemporaryStore, readOnly: Bool = false) -> String? {
        do {
            _ = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Author.self, Book.self]),
                                        location: store.location, readOnly: readOnly)
            return nil
        } catch GraphStoreError.incompatibleStore(let reason) {
            return reason
        } catch {
            return "unexpected \(error)"
        }
    }

    /// The issue's case: without the unique index, inserts that trust it would store duplicates.
    @Test(arguments: [Location.file, .postgres])
    func aDroppedUniqueIndexIsRefusedForWritingAndReading(_ location: Location) throws {
        let store = try seeded(location)
        try store.alter(#"DROP INDEX "Book_isbn_unique""#)
        let before = try store.state()
        #expect(refusal(store)?.contains("unique index on Book(isbn) is missing") == true)
        #expect(refusal(store, readOnly: true)?.contains("unique index on Book(isbn) is missing") == true)
        #expect(try store.state() == before)
    }

    @Test(arguments: [Location.file, .postgres])
    func aMissingColumnOrTableIsNamed(_ location: Location) throws {
        let store = try seeded(location)
        try store.alter(#"ALTER TABLE "Book" DROP COLUMN "pages""#)
        #expect(refusal(store)?.contains("column Book.pages is missing") == true)
        try store.alter(location == .postgres ? #"DROP TABLE "Author" CASCADE"# : #"DROP TABLE "Author""#)  // PostgreSQL drops the foreign key with it
        let reason = refusal(store)
        #expect(reason?.contains("table Author is missing") == true)
        #expect(reason?.contains("column Book.pages is missing") == true)
    }

    @Test(arguments: [Location.file, .postgres])
    func anExtraUniqueIndexIsRefused(_ location: Location) throws {
        let store = try seeded(location)
        try store.alter(#"CREATE UNIQUE INDEX "mine" ON "Book" ("title")"#)
        #expect(refusal(store)?.contains("unique index on Book(title) is not in the model") == true)
    }

    /// A column inserts can leave out (nullable or defaulted) is ignored: what an attribute dropped
    /// by an earlier GraphStore left behind. One they cannot leave out is refused.
    @Test(arguments: [Location.file, .postgres])
    func anExtraColumnIsRefusedOnlyWhenInsertsCannotLeaveItOut(_ location: Location) throws {
        let store = try seeded(location)
        try store.alter(#"ALTER TABLE "Book" ADD COLUMN "leftover" TEXT NOT NULL DEFAULT ''"#)
        #expect(refusal(store) == nil)
        let context = try store.open().newContext()
        context.insert(Book.self).isbn = "2"
        try context.save()
        #expect(try store.open().newContext().all(Book.self).count == 2)
    }

    @Test(arguments: [Location.file, .postgres])
    func aForeignKeyReplacedByAPlainColumnAndARequiredExtraColumnAreRefused(_ location: Location) throws {
        let store = try seeded(location)
        // SQLite's table-rebuild recipe, done by hand without the REFERENCES clause; PostgreSQL alters in place.
        try store.alter(location == .postgres ? """
            ALTER TABLE "Book" DROP CONSTRAINT "Book_author_fkey";
            ALTER TABLE "Book" ADD COLUMN "extra" TEXT NOT NULL DEFAULT 'x';
            ALTER TABLE "Book" ALTER COLUMN "extra" DROP DEFAULT;
            """ : """
            CREATE TABLE "Book2" ("id" INTEGER PRIMARY KEY, "isbn" TEXT NOT NULL DEFAULT '', "title" TEXT NOT NULL DEFAULT '',
              "pages" INTEGER NOT NULL DEFAULT 0, "published" REAL, "author" INTEGER, "extra" TEXT NOT NULL) STRICT;
            INSERT INTO "Book2" SELECT *, 'x' FROM "Book";
            DROP TABLE "Book";
            ALTER TABLE "Book2" RENAME TO "Book";
            CREATE UNIQUE INDEX "Book_isbn_unique" ON "Book" ("isbn");
            CREATE INDEX "Book_author_index" ON "Book" ("author");
            """)
        let reason = refusal(store)
        #expect(reason?.contains("foreign key Book.author → Author(id) ON DELETE CASCADE is missing") == true, "\(reason ?? "")")
        #expect(reason?.contains("column Book.extra is not in the model and has no default") == true, "\(reason ?? "")")
    }

    /// Plain indexes a user adds for their own queries are allowed; the data stays readable.
    @Test(arguments: [Location.file, .postgres])
    func anExtraPlainIndexIsAllowed(_ location: Location) throws {
        let store = try seeded(location)
        try store.alter(#"CREATE INDEX "by_title" ON "Book" ("title")"#)
        #expect(refusal(store) == nil)
        let context = try store.open().newContext()
        #expect(try context.all(Book.self).map(\.isbn) == ["1"])
    }
}
