#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One attribute of an entity.
public struct AttributeDescription: Sendable {
    public let name: String
    let slot: Int
    public let storageType: StorageType
    public let isOptional: Bool
    public let defaultValue: StoredValue
    public let isUnique: Bool
    public let isIndexed: Bool
    /// Its index is built after an import into an empty table (``AttributeOption/indexedAfterImport``).
    public let isIndexedAfterImport: Bool
    public let isTransient: Bool
    /// Persistent history keeps its values before and after an update (``AttributeOption/tracked``).
    public let isTracked: Bool
    /// Persistent history keeps its value in a delete's tombstone (``AttributeOption/preservedOnDeletion``).
    public let isPreservedOnDeletion: Bool
    /// A `Date` (or `Date?`): the store records it, since dates once had another encoding.
    let isDate: Bool
    /// Its name in an earlier model version (``AttributeOption/renamed(from:)``).
    public let renamedFrom: String?

    init(name: String, slot: Int, storage: any AnyAttributeStorage) {
        self.name = name
        self.slot = slot
        let valueType = type(of: storage).valueType
        storageType = valueType.storageType
        isOptional = valueType.isOptional
        isDate = valueType is Date.Type || valueType is Date?.Type
        defaultValue = storage.defaultStoredValue
        isUnique = storage.declaredOptions.contains(.unique)
        isIndexedAfterImport = storage.declaredOptions.contains(.indexedAfterImport)
        isIndexed = storage.declaredOptions.contains(.indexed) || isIndexedAfterImport
        isTransient = storage.declaredOptions.contains(.transient)
        isTracked = storage.declaredOptions.contains(.tracked)
        isPreservedOnDeletion = storage.declaredOptions.contains(.preservedOnDeletion)
        renamedFrom = AttributeOption.renamedFrom(in: storage.declaredOptions)
    }
}
