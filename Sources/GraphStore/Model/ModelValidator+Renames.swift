/// Renames a migration could not apply unambiguously: each old name must be free in the model
/// and claimed once (see ``AttributeOption/renamed(from:)`` and ``ManagedObject/renamedFrom``).
extension ModelValidator {
    func renameProblems() -> [String] {
        let entityNames = Set(entities.map(\.name))
        var problems: [String] = []
        let renamed = entities.compactMap { entity in entity.renamedFrom.map { (entity.name, $0) } }
        for (name, old) in renamed where entityNames.contains(old) {
            problems.append("\(name) is renamed from \(old), but the model still declares an entity \(old)")
        }
        problems += claimedTwice(renamed, what: "entities")
        for entity in entities { problems += columnRenameProblems(entity) }
        return problems
    }

    private func columnRenameProblems(_ entity: EntityDescription) -> [String] {
        let columns = Set(entity.columns)
        let renamed = entity.storedAttributes.compactMap { a in a.renamedFrom.map { (a.name, $0) } }
            + entity.toOneRelationships.compactMap { r in r.renamedFrom.map { (r.name, $0) } }
        var problems = renamed.filter { columns.contains($0.1) }.map { name, old in
            "\(entity.name).\(name) is renamed from \(old), but \(entity.name) still declares \(old)"
        }
        problems += claimedTwice(renamed.map { ("\(entity.name).\($0.0)", $0.1) }, what: "properties")
        return problems
    }

    private func claimedTwice(_ renames: [(String, String)], what: String) -> [String] {
        Dictionary(grouping: renames, by: \.1).filter { $0.value.count > 1 }.keys.sorted().map { old in
            "the \(what) \(renames.filter { $0.1 == old }.map(\.0).joined(separator: " and ")) are all renamed from \(old)"
        }
    }
}

extension EntityDescription {
    /// The entity's former name (a join table's follows from its sides': see ``SchemaRenames``).
    var renamedFrom: String? { isJoin ? nil : objectType.renamedFrom }
}
