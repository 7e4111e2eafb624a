import Foundation
import GraphStore
import Testing

/// A many-to-many pair: `Note.labels` names it, `Label.notes` is the other side (join table `Note_labels`).
final class Label: ManagedObject {
    @Attribute(.unique) var name = ""
    @ToMany var notes: [Note]
}

final class Note: ManagedObject {
    @Attribute(.unique) var slug = ""
    @Attribute var title = ""
    @Attribute var stars: Int? = nil
    @ToMany(inverse: \Label.$notes) var labels: [Label]
}

/// Three pairs, each with a different rule on each side: deleting a hub exercises the hub side's
/// nullify, cascade and deny; deleting a spoke the spoke side's.
final class Hub: ManagedObject {
    @Attribute var name = ""
    @ToMany(inverse: \Spoke.$denyHubs, deleteRule: .nullify) var nullifySpokes: [Spoke]
    @ToMany(inverse: \Spoke.$nullifyHubs, deleteRule: .cascade) var cascadeSpokes: [Spoke]
    @ToMany(inverse: \Spoke.$cascadeHubs, deleteRule: .deny) var denySpokes: [Spoke]
}

final class Spoke: ManagedObject {
    @Attribute var name = ""
    @ToMany(deleteRule: .deny) var denyHubs: [Hub]
    @ToMany(deleteRule: .nullify) var nullifyHubs: [Hub]
    @ToMany(deleteRule: .cascade) var cascadeHubs: [Hub]
}

/// A pair within one entity: who follows whom (`.noAction` on the followers side acts as `.nullify`).
final class Person: ManagedObject {
    @Attribute var name = ""
    @ToMany(inverse: \Person.$followers) var follows: [Person]
    @ToMany(deleteRule: .noAction) var followers: [Person]
}

let manyToManyEntities: [ManagedObject.Type] = [Label.self, Note.self, Hub.self, Spoke.self, Person.self]

extension Array where Element: ManagedObject {
    /// Names (or slugs) sorted: relationship order is not part of the contract.
    func sortedNames(_ name: (Element) -> String) -> [String] { map(name).sorted() }
}
