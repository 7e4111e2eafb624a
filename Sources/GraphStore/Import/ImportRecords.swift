/// Records of one entity for an ``ImportSession``, keyed by one of its unique attributes:
/// values, not objects (Core Data's batch insert with a uniqueness constraint, typed).
///
/// ```swift
/// var photographers = ImportRecords(Photographer.self, key: \.$name)
/// let ownerID = photographers.field(\.$ownerID)
/// var photos = ImportRecords(Photo.self, key: \.$unique)
/// let title = photos.field(\.$title)
/// let whoTook = photos.link(\.$whoTook)
/// let ana = photographers.append("Ana Lima") { $0[ownerID] = "10104729@N02" }
/// photos.append("53412345678") { $0[title] = "Harbour"; $0[whoTook] = ana }
/// ```
/// Records with the same key may be appended more than once (a feed repeats itself): the session's
/// merge policy picks among them, as it would among new duplicates. Grouping happens here, as
/// records are appended, so a batch built on another thread costs its saving thread no hashing.
/// A value type without references: build batches on any thread.
public struct ImportRecords<T: ManagedObject>: Sendable {
    @usableFromInline var table: RecordTable
    /// The record `append` fills, reused so that appending allocates nothing per record.
    @usableFromInline var scratch: ImportRecord<T>

    /// Records of `T` keyed by `key`, which must be a single-attribute unique constraint.
    public init<K: AttributeValue>(_ type: T.Type = T.self, key: KeyPath<T, Attribute<K>>) {
        let entity = EntityDescription.of(T.self)
        guard let slot = entity.slot(of: key), let attribute = entity.attribute(atSlot: slot),
            entity.uniqueConstraints.contains([attribute.name]),
            let index = entity.storedAttributes.firstIndex(where: { $0.slot == slot })
        else { preconditionFailure("\(key) is not a unique attribute of \(entity.name)") }
        table = RecordTable(entity: entity, keyIndex: index)
        scratch = ImportRecord(width: table.width, links: table.linkCount, sets: table.setCount)
    }

    /// The handle that sets `attribute` in a record (look it up once, use it for every record).
    public func field<V: AttributeValue>(_ attribute: KeyPath<T, Attribute<V>>) -> ImportField<T, V> {
        let entity = table.entity
        guard let slot = entity.slot(of: attribute), let index = entity.storedAttributes.firstIndex(where: { $0.slot == slot }) else {
            preconditionFailure("\(attribute) is not a stored attribute of \(entity.name); use the $-prefixed key path, e.g. \\.$title")
        }
        precondition(index != table.keyIndex, "\(attribute) is the records' key: it is given to append")
        return ImportField(index: index)
    }

    /// The handle that sets `attribute` only in rows the import inserts: a stored row keeps its value
    /// under every policy, and a difference there alone is no update. For facts about a row's
    /// arrival, such as which query first brought it.
    public mutating func fieldSetOnInsert<V: AttributeValue>(_ attribute: KeyPath<T, Attribute<V>>) -> ImportField<T, V> {
        let field = field(attribute)
        table.insertOnly |= 1 << field.index
        return field
    }

    /// The handle that links a record to a record of `D` in the same ``ImportSession/save(_:)`` call.
    public func link<D: ManagedObject>(_ relationship: KeyPath<T, ToOne<D>>) -> ImportLink<T, D> {
        let entity = table.entity
        guard let slot = entity.slot(of: relationship), let index = entity.toOneRelationships.firstIndex(where: { $0.slot == slot }) else {
            preconditionFailure("\(relationship) is not a to-one relationship of \(entity.name); use the $-prefixed key path")
        }
        return ImportLink(index: index)
    }

    /// The handle that gives a record's complete set of members of the many-to-many `relationship`:
    /// records of `D` in the same ``ImportSession/save(_:)`` call, named by their keys. A record
    /// that gives no set leaves the stored pairs as they are; one that gives a set (empty included)
    /// makes the pairs exactly that set, where the merge policy lets it (see <doc:Importing>).
    public func members<D: ManagedObject>(_ relationship: KeyPath<T, ToMany<D>>) -> ImportMembers<T, D> {
        let entity = table.entity
        guard let slot = entity.slot(of: relationship), let index = entity.manyToManyRelationships.firstIndex(where: { $0.slot == slot }) else {
            preconditionFailure("\(relationship) is not a many-to-many relationship of \(entity.name); set a to-one from the members' records instead")
        }
        precondition(D.self != T.self, "\(relationship) relates \(entity.name) to itself: import records link only to another entity's records")
        return ImportMembers(index: index)
    }

    /// Appends a record with `key` and the values `fill` sets; unset attributes keep their stored
    /// value (or the declared default for a new row). Returns the record's reference for links.
    /// (Inlinable: specialized in the caller, filling a record costs no generic dispatch.)
    @inlinable @discardableResult
    public mutating func append<K: AttributeValue>(_ key: K, _ fill: (inout ImportRecord<T>) -> Void = { _ in }) -> ImportReference<T> {
        fill(&scratch)
        defer { scratch.clear() }
        return ImportReference(group: table.append(key: key.storedValue, scratch.values, scratch.assigned, scratch.links, scratch.sets))
    }

    /// Makes room for `records` records, so that appending them does not grow the storage.
    public mutating func reserveCapacity(_ records: Int) { table.reserveCapacity(records) }

    /// How many records were appended (repeats included).
    public var count: Int { table.recordCount }
    public var isEmpty: Bool { table.recordCount == 0 }
}

/// One record being filled by ``ImportRecords/append(_:_:)``.
public struct ImportRecord<T: ManagedObject>: Sendable {
    @usableFromInline var values: [StoredValue]
    @usableFromInline var assigned: UInt64 = 0
    @usableFromInline var links: [Int32]
    /// Per many-to-many: the member groups given, or nil.
    @usableFromInline var sets: [[Int32]?]

    init(width: Int, links: Int, sets: Int) {
        values = Array(repeating: .null, count: width)
        self.links = Array(repeating: RecordTable.unlinked, count: links)
        self.sets = Array(repeating: nil, count: sets)
    }

    /// Back to no value set, in place.
    @inlinable mutating func clear() {
        for index in sets.indices where sets[index] != nil { sets[index] = nil }
        guard assigned != 0 || links.contains(where: { $0 >= 0 }) else { return }
        for index in values.indices where assigned & (1 << index) != 0 { values[index] = .null }
        for index in links.indices { links[index] = -1 }
        assigned = 0
    }

    @inlinable
    public subscript<V: AttributeValue>(field: ImportField<T, V>) -> V? {
        get { assigned & (1 << field.index) == 0 ? nil : V(storedValue: values[field.index]) }
        set {
            values[field.index] = newValue?.storedValue ?? .null
            assigned |= 1 << field.index
        }
    }

    /// The record of the destination entity this record's to-one points at.
    @inlinable
    public subscript<D: ManagedObject>(link: ImportLink<T, D>) -> ImportReference<D>? {
        get { links[link.index] < 0 ? nil : ImportReference(group: Int(links[link.index])) }
        set { links[link.index] = newValue.map { Int32($0.group) } ?? -1 }
    }

    /// The complete set of `D` records this record's many-to-many relationship holds (nil: not given).
    @inlinable
    public subscript<D: ManagedObject>(members: ImportMembers<T, D>) -> [ImportReference<D>]? {
        get { sets[members.index].map { $0.map { ImportReference(group: Int($0)) } } }
        set { sets[members.index] = newValue.map { $0.map { Int32($0.group) } } }
    }
}

/// A many-to-many of `T` to `D` whose complete set an import gives (from ``ImportRecords/members(_:)``).
public struct ImportMembers<T: ManagedObject, D: ManagedObject>: Sendable {
    @usableFromInline let index: Int
}

/// A stored attribute of `T` an import sets (from ``ImportRecords/field(_:)``).
public struct ImportField<T: ManagedObject, V: AttributeValue>: Sendable {
    @usableFromInline let index: Int
}

/// A to-one of `T` to `D` an import sets (from ``ImportRecords/link(_:)``).
public struct ImportLink<T: ManagedObject, D: ManagedObject>: Sendable {
    @usableFromInline let index: Int
}

/// A record of `T` appended to an ``ImportRecords``: all records with its key share one reference.
public struct ImportReference<T: ManagedObject>: Sendable, Hashable {
    @usableFromInline let group: Int
    @usableFromInline init(group: Int) { self.group = group }
}

/// Records of any entity, as ``ImportSession/save(preparing:)`` takes them.
public struct AnyImportRecords {
    let table: RecordTable

    public init<T: ManagedObject>(_ records: ImportRecords<T>) { table = records.table }
}
