#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The schema a model implies, stored in the file so a later model can tell what changed.
struct SchemaSnapshot: Codable, Equatable, Sendable {
    struct Column: Codable, Equatable, Sendable {
        var name: String
        var type: StorageType
        var isOptional: Bool
        var defaultValue: String?
        /// For a to-one foreign key: the destination table and its ON DELETE action.
        var references: String?
        var onDelete: String?
        /// A `Date` column (true, else absent): how its values are encoded depends on ``format``.
        var isDate: Bool?
    }

    struct Table: Codable, Equatable, Sendable {
        var name: String
        var columns: [Column]
        var uniqueConstraints: [[String]]
        var indexes: [[String]]
        /// A many-to-many pair's join table (true, else absent): a migration drops it with the pair.
        var isJoin: Bool?
    }

    var version: Int
    var tables: [Table]
    /// How values are encoded, apart from the model's version: absent in the first format (dates as
    /// seconds since 1970), ``currentFormat`` since dates are seconds since 2001 (exact).
    var format: Int?

    static let currentFormat = 2

    init(model: ManagedObjectModel) {
        version = model.version
        tables = model.storedEntities.map(Self.table)
        format = Self.currentFormat
    }

    func table(named name: String) -> Table? { tables.first { $0.name == name } }

    private static func table(_ entity: EntityDescription) -> Table {
        let attributes = entity.storedAttributes.map { attribute in
            Column(name: attribute.name, type: attribute.storageType, isOptional: attribute.isOptional,
                   defaultValue: attribute.isOptional ? nil : SQL.literal(attribute.defaultValue), isDate: attribute.isDate ? true : nil)
        }
        // A join row always goes with either of its objects, whatever the pair's delete rules.
        let foreignKeys = entity.toOneRelationships.map { relationship in
            Column(name: relationship.name, type: .integer, isOptional: !entity.isJoin, defaultValue: nil,
                   references: relationship.destinationName, onDelete: entity.isJoin ? "CASCADE" : onDeleteAction(of: relationship))
        }
        return Table(name: entity.name, columns: attributes + foreignKeys, uniqueConstraints: entity.uniqueConstraints,
                     indexes: entity.indexes, isJoin: entity.isJoin ? true : nil)
    }

    /// The foreign key's action mirrors the inverse to-many's delete rule (the context applies it first;
    /// SQLite enforces it as a safety net).
    private static func onDeleteAction(of relationship: RelationshipDescription) -> String {
        let inverse = relationship.inverseName.flatMap { relationship.destinationEntity.relationship(named: $0) }
        switch inverse?.deleteRule ?? .nullify {
        case .cascade: return "CASCADE"
        case .nullify: return "SET NULL"
        case .deny: return "RESTRICT"
        case .noAction: return "NO ACTION"
        }
    }

    func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    static func decode(_ text: String) -> SchemaSnapshot? {
        try? JSONDecoder().decode(SchemaSnapshot.self, from: Data(text.utf8))
    }
}

/// DDL for the snapshot's tables.
extension SchemaSnapshot.Table {
    var createSQL: String {
        let columns = ["\"id\" INTEGER PRIMARY KEY"] + self.columns.map(\.definition)
        return "CREATE TABLE \(SQL.quote(name)) (\(columns.joined(separator: ", "))) STRICT"
    }

    func createIndexSQL(_ columns: [String], unique: Bool) -> String {
        let indexName = name + "_" + columns.joined(separator: "_") + (unique ? "_unique" : "_index")
        return "CREATE \(unique ? "UNIQUE " : "")INDEX \(SQL.quote(indexName)) ON \(SQL.quote(name)) (\(columns.map(SQL.quote).joined(separator: ", ")))"
    }

    func dropIndexSQL(_ columns: [String], unique: Bool) -> String {
        "DROP INDEX IF EXISTS " + SQL.quote(name + "_" + columns.joined(separator: "_") + (unique ? "_unique" : "_index"))
    }
}

extension SchemaSnapshot.Column {
    var definition: String {
        var text = "\(SQL.quote(name)) \(type.rawValue)"
        if !isOptional { text += " NOT NULL" }
        if let defaultValue { text += " DEFAULT \(defaultValue)" }
        if let references {
            text += " REFERENCES \(SQL.quote(references))(\"id\") ON DELETE \(onDelete ?? "NO ACTION") DEFERRABLE INITIALLY DEFERRED"
        }
        return text
    }
}
