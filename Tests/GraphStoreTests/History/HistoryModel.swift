import Foundation
@testable import GraphStore

/// A photographer lives while it has pictures; its name is its key and stays in tombstones.
final class Shooter: ManagedObject {
    @Attribute(.unique, .preservedOnDeletion) var name = ""
    @Attribute var city = ""
    @ToMany(inverse: \Picture.$shooter, deleteRule: .nullify, deletesOwnerWhenEmpty: true) var pictures: [Picture]
}

/// Title and shooter are tracked and kept in tombstones; rating is neither.
final class Picture: ManagedObject {
    @Attribute(.unique) var code = ""
    @Attribute(.tracked, .preservedOnDeletion) var title = ""
    @Attribute var rating = 0
    @ToOne(deleteRule: .nullify, .tracked, .preservedOnDeletion) var shooter: Shooter?
    @ToMany(inverse: \Caption.$picture, deleteRule: .cascade) var captions: [Caption]
}

/// No unique key: history names it by row id.
final class Caption: ManagedObject {
    @Attribute var text = ""
    @ToOne var picture: Picture?
}

/// A store (SQLite file or PostgreSQL schema) opened with history, fresh each `open`.
struct HistoryStore {
    static let entities: [ManagedObject.Type] = [Shooter.self, Picture.self, Caption.self]
    let temporary: TemporaryStore

    init(_ location: Location) throws {
        temporary = try TemporaryStore(location == .postgres ? .postgres : .file)
    }

    func open(author: String? = nil, tracksHistory: Bool = true) throws -> PersistentContainer {
        try PersistentContainer(model: ManagedObjectModel(version: 1, entities: Self.entities), location: temporary.location,
                                tracksHistory: tracksHistory, transactionAuthor: author)
    }
}

/// The locations history is tested on: a SQLite file and PostgreSQL.
let historyLocations: [Location] = [.file, .postgres]

extension PersistentContainer {
    /// Every transaction from the start.
    func allHistory() throws -> [HistoryTransaction] { try history(after: .start).transactions }
}

extension HistoryChange {
    var textKey: String {
        switch key {
        case .text(let text): text
        case .integer(let integer): String(integer)
        default: "\(key)"
        }
    }
}
