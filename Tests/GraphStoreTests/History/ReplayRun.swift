import Foundation
@testable import GraphStore

/// The random steps of ``HistoryReplayTests``.
struct ReplayRun {
    let container: PersistentContainer
    var random: SplitMix
    var counts: [String: Int] = [:]
    private var next = 0
    private let names = ["Ana", "Bo", "Cy", "Di", "Ed"]

    init(container: PersistentContainer, random: SplitMix) {
        self.container = container
        self.random = random
    }

    mutating func step() throws {
        let steps: [(String, (inout ReplayRun) throws -> Void)] = [
            ("insert", { try $0.insert() }), ("insert", { try $0.insert() }), ("update", { try $0.update() }),
            ("move", { try $0.move() }), ("delete", { try $0.delete() }), ("rename", { try $0.rename() }),
            ("import", { try $0.importBatch() }), ("rowUpdate", { try $0.rowUpdate() }), ("rollback", { try $0.rolledBack() }),
        ]
        let (name, body) = steps[Int.random(in: 0..<steps.count, using: &random)]
        counts[name, default: 0] += 1
        try body(&self)
    }

    private mutating func code() -> String {
        next += 1
        return "p\(next)"
    }

    private mutating func shooter(_ context: ObjectContext) throws -> Shooter {
        let name = names.randomElement(using: &random)!
        if let found = try context.all(Shooter.self, where: \.$name == name).first { return found }
        let shooter = context.insert(Shooter.self)
        shooter.name = name
        return shooter
    }

    private mutating func some(_ context: ObjectContext) throws -> [Picture] {
        let all = try context.all(Picture.self, sortBy: [.ascending(\.$code)])
        return all.filter { _ in Bool.random(using: &random) }.prefix(3).map { $0 }
    }

    private mutating func insert() throws {
        let context = container.newContext()
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let picture = context.insert(Picture.self)
            (picture.code, picture.title, picture.shooter) = (code(), "t\(next)", try shooter(context))
            if Bool.random(using: &random) { context.insert(Caption.self).picture = picture }
        }
        try context.save()
    }

    private mutating func update() throws {
        let context = container.newContext()
        for picture in try some(context) {
            picture.title = "u\(Int.random(in: 0..<5, using: &random))"
            picture.rating += 1
        }
        try context.save()
    }

    private mutating func move() throws {
        let context = container.newContext()
        for picture in try some(context) { picture.shooter = Bool.random(using: &random) ? try shooter(context) : nil }
        try context.save()
    }

    private mutating func delete() throws {
        let context = container.newContext()
        for picture in try some(context) { context.delete(picture) }
        if Int.random(in: 0..<4, using: &random) == 0, let shooter = try context.all(Shooter.self).first { context.delete(shooter) }
        try context.save()
    }

    private mutating func rename() throws {
        let context = container.newContext()
        let pictures = try some(context)
        if pictures.count >= 2 {
            (pictures[0].code, pictures[1].code) = (pictures[1].code, pictures[0].code)
        } else if let picture = pictures.first {
            picture.code = code()
        }
        try context.save()
    }

    private mutating func importBatch() throws {
        var shooters = ImportRecords(Shooter.self, key: \.$name)
        var pictures = ImportRecords(Picture.self, key: \.$code)
        let (title, link) = (pictures.field(\.$title), pictures.link(\.$shooter))
        let existing = try some(container.newContext()).map(\.code)
        for code in existing + [code(), code()] {
            let owner = shooters.append(names.randomElement(using: &random)!)
            let newTitle = "i\(Int.random(in: 0..<3, using: &random))"
            pictures.append(code) { $0[title] = newTitle; $0[link] = owner }
        }
        try container.importing(mergePolicy: .objectTrump) { session in _ = try session.save(shooters, pictures) }
    }

    private mutating func rowUpdate() throws {
        let context = container.newContext()
        for picture in try some(context) {
            context.update(picture.objectID, .set(\Picture.$title, to: "r\(Int.random(in: 0..<3, using: &random))"))
        }
        try context.save()
    }

    /// A failed save, a preview and a dry-run import: none may leave history.
    private mutating func rolledBack() throws {
        let context = container.newContext()
        if let taken = try context.all(Picture.self).first?.code {
            context.insert(Picture.self).code = taken
            if (try? context.save()) != nil { throw ReplayError.savedADuplicate }
            context.rollback()
        }
        context.insert(Picture.self).code = code()
        _ = try context.previewSave()
        let dryCode = code()
        try container.importing(mergePolicy: .objectTrump, dryRun: true) { session in
            var pictures = ImportRecords(Picture.self, key: \.$code)
            pictures.append(dryCode)
            _ = try session.save(pictures)
        }
    }
}

enum ReplayError: Error { case savedADuplicate }
