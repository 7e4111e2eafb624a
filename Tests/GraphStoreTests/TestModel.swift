import Foundation
import GraphStore
import Synchronization
import Testing

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

/// A composite unique constraint: (source, externalID).
final class Event: ManagedObject {
    @Attribute var source = ""
    @Attribute var externalID = 0
    @Attribute var title = ""
    @Attribute var note: String? = nil
    override class var compositeUniqueConstraints: [[AnyKeyPath]] { [[\Event.$source, \Event.$externalID]] }
}

/// One parent with a to-many of each delete rule, all pointing at `Child`.
final class Parent: ManagedObject {
    @Attribute var name = ""
    @ToMany(inverse: \Child.$nullifyParent, deleteRule: .nullify) var nullifyKids: [Child]
    @ToMany(inverse: \Child.$cascadeParent, deleteRule: .cascade) var cascadeKids: [Child]
    @ToMany(inverse: \Child.$denyParent, deleteRule: .deny) var denyKids: [Child]
    @ToMany(inverse: \Child.$noActionParent, deleteRule: .noAction) var noActionKids: [Child]
}

final class Child: ManagedObject {
    @Attribute var name = ""
    @ToOne var nullifyParent: Parent?
    @ToOne var cascadeParent: Parent?
    @ToOne var denyParent: Parent?
    @ToOne var noActionParent: Parent?
}

/// Records lifecycle hooks of the hooked entities for the current test (a task-local, so parallel tests don't mix).
final class HookLog: Sendable {
    private let storage = Mutex<[String]>([])
    var events: [String] { storage.withLock { $0 } }
    func record(_ event: String) { storage.withLock { $0.append(event) } }
    func count(_ prefix: String) -> Int { events.filter { $0.hasPrefix(prefix) }.count }

    @TaskLocal static var current: HookLog?
}

/// The README example: deleting the last photo of a photographer deletes the photographer.
final class Photographer: ManagedObject {
    @Attribute var name = ""
    @ToMany(inverse: \Photo.$photographer, deleteRule: .nullify) var photos: [Photo]

    override func awakeFromInsert() { HookLog.current?.record("awakeFromInsert:Photographer") }
    override func awakeFromFetch() { HookLog.current?.record("awakeFromFetch:\(name)") }
    override func willSave() { HookLog.current?.record("willSave:\(name)") }
    override func didSave() { HookLog.current?.record("didSave:\(name)") }
    override func prepareForDeletion() { HookLog.current?.record("prepareForDeletion:\(name)") }
}

final class Album: ManagedObject {
    @Attribute var name = ""
    @ToMany(inverse: \Photo.$album, deleteRule: .cascade) var photos: [Photo]

    override func willSave() { HookLog.current?.record("willSave:\(name)") }
    override func prepareForDeletion() { HookLog.current?.record("prepareForDeletion:\(name)") }
}

final class Photo: ManagedObject {
    @Attribute var title = ""
    @Attribute var rating = 0
    @ToOne var photographer: Photographer?
    @ToOne var album: Album?

    override func awakeFromInsert() {
        HookLog.current?.record("awakeFromInsert:Photo")
        rating = 1
    }
    override func awakeFromFetch() { HookLog.current?.record("awakeFromFetch:\(title)") }
    override func willSave() { HookLog.current?.record("willSave:\(title)") }
    override func didSave() { HookLog.current?.record("didSave:\(title)") }
    override func prepareForDeletion() {
        // Reads both to-ones: they must still be set (relationships not yet torn down).
        HookLog.current?.record("prepareForDeletion:\(title) album=\(album?.name ?? "nil") by=\(photographer?.name ?? "nil")")
        if let photographer, photographer.photos.allSatisfy({ $0 === self || $0.isDeleted }) {
            context?.delete(photographer)
        }
    }
    override func validateForSave() throws {
        if title.isEmpty { throw ValidationFailure("title must not be empty") }
    }
}

let allEntities: [ManagedObject.Type] = [Author.self, Book.self, Event.self, Parent.self, Child.self, Photographer.self, Album.self, Photo.self]

/// A fresh store per test: a file in its own temporary directory, or a PostgreSQL schema of its own.
/// Both go with the last copy of the store (the end of the test that made it), as the schema did.
struct TemporaryStore {
    let directory: URL
    var path: String { directory.appendingPathComponent("store.sqlite").path }
    /// The PostgreSQL schema, for a store on the test server.
    let schema: PostgresTestSchema?
    private let folder: RemovedOnDeinit

    init(_ location: Location = .file) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("graphstore-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        folder = RemovedOnDeinit(directory)
        schema = location == .postgres ? try PostgresTestSchema() : nil
    }

    init() { try! self.init(.file) }

    var location: StoreLocation { schema.map { .postgres($0.url) } ?? .file(path) }

    func open(version: Int = 1, entities: [ManagedObject.Type] = [Author.self, Book.self], readOnly: Bool = false) throws -> PersistentContainer {
        try PersistentContainer(model: ManagedObjectModel(version: version, entities: entities), location: location, readOnly: readOnly)
    }

    /// The store file's bytes (compare before and after an open that must not touch it).
    func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
}

/// Removes its folder when released.
private final class RemovedOnDeinit: Sendable {
    let directory: URL
    init(_ directory: URL) { self.directory = directory }
    deinit { try? FileManager.default.removeItem(at: directory) }
}

/// Where a test's store lives: a file (reopened to read back) or memory (one container throughout).
enum Location: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case file, memory, postgres
    var testDescription: String { rawValue }
}

/// A store that reads back "after reopening" for files, and from a fresh context for memory.
final class TestStore {
    let location: Location
    let entities: [ManagedObject.Type]
    private let file: TemporaryStore
    private var memory: PersistentContainer?

    init(_ location: Location, entities: [ManagedObject.Type] = allEntities) throws {
        self.location = location
        self.entities = entities
        file = try TemporaryStore(location == .postgres ? .postgres : .file)
        if location == .memory {
            memory = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: entities), location: .inMemory)
        }
    }

    /// The container: for a file or PostgreSQL, a newly opened one each call (so reads come from the store).
    func open() throws -> PersistentContainer {
        if let memory { return memory }
        return try file.open(entities: entities)
    }

    /// A new context on a freshly opened store.
    func reader() throws -> ObjectContext { try open().newContext() }
}

extension ObjectContext {
    func all<T: ManagedObject>(_ type: T.Type, sortBy: [FetchSort<T>] = [], where predicate: FetchPredicate<T>? = nil) throws -> [T] {
        try fetch(FetchRequest<T>(predicate: predicate, sortBy: sortBy))
    }
}
