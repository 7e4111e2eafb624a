import Foundation
import GraphStore

/// One change of the catalog, as `photosync changes` prints it: a photo or photographer inserted,
/// updated or deleted, or an id a delete excluded or `restore` forgot.
public struct CatalogChange: Sendable, Equatable, Encodable {
    public enum Kind: String, Sendable, Encodable {
        case inserted, updated, deleted, excluded, restored
        /// A re-check found the photo gone upstream; a gone photo came back.
        case gone, returned
    }

    /// A field's values before and after (tracked fields), or neither (the field changed).
    public struct Field: Sendable, Equatable, Encodable {
        public var before: String?
        public var after: String?
    }

    public var token: String
    public var run: Int?
    public var author: String?
    public var at: Date
    public var entity: String
    public var id: String
    public var kind: Kind
    /// For updates (tracked fields with before and after, the others as null) and deletes (what
    /// the tombstone kept, as before).
    public var fields: [String: Field?]?

    private enum CodingKeys: String, CodingKey { case token, run, author, at, entity, id, kind, fields }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(token, forKey: .token)
        try container.encode(run, forKey: .run)
        try container.encode(author, forKey: .author)
        try container.encode(timestamp(at), forKey: .at)
        try container.encode(entity, forKey: .entity)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(fields, forKey: .fields)
    }
}

extension CatalogChange {
    /// The catalog's change for a history change, or nil for the bookkeeping entities (runs, API
    /// calls, files). The run comes from the author `fetch run N`.
    init?(_ change: HistoryChange, of transaction: HistoryTransaction) {
        self.init(change, token: transaction.token.description, author: transaction.author, at: transaction.date)
    }

    /// The change as a transaction of `author` at `date` would record it, under `token`.
    init?(_ change: HistoryChange, token: String, author: String?, at date: Date) {
        let mapped: (String, Kind)? = switch (change.entity, change.kind) {
        case ("Photo", let kind): ("photo", Kind(kind))
        case ("Photographer", let kind): ("photographer", Kind(kind))
        case ("Tag", let kind): ("tag", Kind(kind))
        case ("ExcludedPhoto", .inserted): ("photo", .excluded)
        case ("ExcludedPhoto", .deleted): ("photo", .restored)
        case ("ExcludedPhotographer", .inserted): ("photographer", .excluded)
        case ("ExcludedPhotographer", .deleted): ("photographer", .restored)
        default: nil
        }
        guard case (let entity, var kind)? = mapped, !Self.isBookkeeping(change), !Self.isTagLinksOnly(change) else { return nil }
        if entity == "photo", kind == .updated, let gone = change.values["gone"] {
            kind = gone.after == .null ? .returned : .gone
        }
        self.token = token
        self.author = author
        run = author.flatMap { $0.wholeMatch(of: /fetch run (\d+)/).flatMap { Int($0.1) } }
        at = date
        self.entity = entity
        id = Self.text(change.key) ?? ""
        self.kind = kind
        fields = Self.fields(change, kind)
    }

    /// An update of when a photo was last re-checked, and nothing else: not a change to show.
    private static func isBookkeeping(_ change: HistoryChange) -> Bool {
        change.kind == .updated && change.entity == "Photo" && change.changedAttributes.allSatisfy { $0 == "checked" }
    }

    /// A tag's links to photos, and nothing else: each photo's own change shows them (`tags`).
    private static func isTagLinksOnly(_ change: HistoryChange) -> Bool {
        change.kind == .updated && change.entity == "Tag" && change.changedAttributes.allSatisfy { $0 == "photos" }
    }

    private static func fields(_ change: HistoryChange, _ kind: Kind) -> [String: Field?]? {
        switch kind {
        case .updated, .gone, .returned:
            var fields: [String: Field?] = [:]
            for name in change.changedAttributes {
                let field = change.values[name].map { Field(before: text($0.before), after: text($0.after)) }
                // The photo's to-many `tags` (its links) is shown by `tagList`'s before and after.
                if field != nil || fields.index(forKey: displayName(name)) == nil { fields[displayName(name)] = .some(field) }
            }
            return fields
        case .deleted:
            var fields: [String: Field?] = [:]
            for (name, value) in change.tombstone { fields[displayName(name)] = Field(before: text(value), after: nil) }
            return fields
        default:
            return nil
        }
    }

    private static func displayName(_ attribute: String) -> String {
        switch attribute {
        case "whoTook": "photographer"
        case "unique": "id"
        case "tagList": "tags"
        case "goneReason": "gone_reason"
        default: attribute
        }
    }

    static func text(_ value: StoredValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let integer): String(integer)
        case .real(let real): String(real)
        case .text(let text): text
        case .blob(let data): data.base64EncodedString()
        }
    }

    /// Whether the change is about `photographer`: the photographer, or one of their photos.
    func concerns(photographer name: String) -> Bool {
        if entity == "photographer" { return id == name }
        guard let field = fields?["photographer"] ?? nil else { return false }
        return field.before == name || field.after == name
    }
}

extension CatalogChange.Kind {
    init(_ kind: HistoryChange.Kind) {
        self = switch kind {
        case .inserted: .inserted
        case .updated: .updated
        case .deleted: .deleted
        }
    }
}

extension FetchSummary {
    /// Lists a dry run's history changes as `changes` would (the first ``dryRunChangesShown``).
    mutating func list(_ recorded: [HistoryChange], token: HistoryToken) {
        let all = recorded.compactMap { CatalogChange($0, token: token.description, author: "fetch", at: Date()) }
        (changes, changesTotal) = (Array(all.prefix(Self.dryRunChangesShown)), all.count)
    }
}
