@_spi(Reflection) import Swift
import Synchronization

/// Where a ``ManagedObject`` subclass keeps its property wrappers, read once per class from the runtime.
///
/// Why not `Mirror`: reflecting an object costs about 8 µs, paid for every object a fetch or an import
/// creates; reading the wrapper references at their field offsets costs about 0.3 µs. The offsets come
/// from the Swift runtime's own field metadata (`_forEachField`), once per class.
///
/// This file is the only user of the standard library's private reflection API (`@_spi(Reflection)`
/// `_forEachField`, `_getSuperclass`, raw field offsets). It is not covered by source or ABI
/// stability: ``ManagedObjectModel/propertiesMissedByReflection()`` checks it against `Mirror`, in
/// a test suite (GraphStore's and photosync's run it on every model), not at each start: `Mirror`
/// costs a reading command an eighth of its instructions, and the runtime is linked in at build time.
struct FieldLayout: Sendable {
    enum Kind: Sendable { case attribute, toOne, toMany }

    struct Field: @unchecked Sendable {  // a metatype is immutable
        /// The property's name (the storage label without its leading underscore).
        let name: String
        let offset: Int
        let kind: Kind
        /// The wrapper's class, which types a wrapper read at `offset` without a dynamic cast.
        let wrapperType: any PropertyWrapperStorage.Type
    }

    let fields: [Field]
    /// Properties declared as optional wrappers (`var x: Attribute<Int>?`): never bound to the
    /// object, so their values would be lost; the model refuses them by name.
    let optionalWrappers: [String]
    /// The class's entity name, computed once (`String(describing:)` per object would cost).
    let entityName: String

    static func of(_ type: ManagedObject.Type) -> FieldLayout {
        let key = ObjectIdentifier(type)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let (fields, optionalWrappers) = collectFields(of: type)
        let layout = FieldLayout(fields: fields, optionalWrappers: optionalWrappers, entityName: type.entityName)
        cache.withLock { $0[key] = layout }
        return layout
    }

    /// The wrappers of `object`, in field order, typed (`as!` per wrapper per object cost a
    /// conformance lookup each: a fifth of creating an object).
    func properties(of object: ManagedObject) -> [PropertyStorage] {
        let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        return fields.map { $0.wrapperType.storage(of: base.load(fromByteOffset: $0.offset, as: AnyObject.self)) }
    }

    private static let cache = Mutex<[ObjectIdentifier: FieldLayout]>([:])

    /// The wrapper properties `Mirror` (public API) finds in a new instance that the field metadata
    /// above did not: a runtime change, or an optional wrapper.
    static func unreflectedWrappers(of type: ManagedObject.Type) -> [String] {
        let found = Set(of(type).fields.map(\.name))
        var missed: [String] = []
        var mirror: Mirror? = Mirror(reflecting: type.init())
        while let current = mirror, current.subjectType != ManagedObject.self {
            for child in current.children {
                guard let label = child.label, child.value as? any PropertyWrapperStorage != nil else { continue }
                if !found.contains(propertyName(label)) { missed.append(propertyName(label)) }
            }
            mirror = current.superclassMirror
        }
        return missed
    }

    private static func collectFields(of type: ManagedObject.Type) -> (fields: [Field], optionalWrappers: [String]) {
        var chain: [AnyClass] = []
        var current: AnyClass? = type
        while let someClass = current, someClass != ManagedObject.self {
            chain.insert(someClass, at: 0)
            current = class_getSuperclass(someClass)
        }
        var (fields, optionalWrappers): ([Field], [String]) = ([], [])
        for someClass in chain { ownFields(of: someClass, into: &fields, optionalWrappers: &optionalWrappers) }
        return (fields, optionalWrappers)
    }

    private static func ownFields(of type: AnyClass, into fields: inout [Field], optionalWrappers: inout [String]) {
        let classType = _EachFieldOptions(rawValue: 1 << 0)
        _ = _forEachField(of: type, options: classType) { name, offset, fieldType, kind in
            if let wrapperType = fieldType as? any PropertyWrapperStorage.Type {
                fields.append(Field(name: propertyName(String(cString: name)), offset: offset, kind: wrapperType.kind, wrapperType: wrapperType))
            } else if kind == .optional, fieldType is any OptionalWrapper.Type {
                optionalWrappers.append(propertyName(String(cString: name)))
            }
            return true
        }
    }

    private static func propertyName(_ storageName: String) -> String {
        storageName.hasPrefix("_") ? String(storageName.dropFirst()) : storageName
    }
}

/// `class_getSuperclass` without the Objective-C runtime.
private func class_getSuperclass(_ type: AnyClass) -> AnyClass? {
    _getSuperclass(type)
}

/// An optional wrapper field's type, told apart by conformance (only optional fields are asked).
private protocol OptionalWrapper {}
extension Optional: OptionalWrapper where Wrapped: PropertyWrapperStorage {}

/// A property wrapper class GraphStore finds in an object's fields: ``Attribute``, ``ToOne``, ``ToMany``.
protocol PropertyWrapperStorage: AnyObject {
    static var kind: FieldLayout.Kind { get }
    /// `wrapper`, known to be of this class, as the context sees it.
    static func storage(of wrapper: AnyObject) -> PropertyStorage
}

extension Attribute: PropertyWrapperStorage {
    static var kind: FieldLayout.Kind { .attribute }
    static func storage(of wrapper: AnyObject) -> PropertyStorage { .attribute(unsafeDowncast(wrapper, to: Self.self)) }
}

extension ToOne: PropertyWrapperStorage {
    static var kind: FieldLayout.Kind { .toOne }
    static func storage(of wrapper: AnyObject) -> PropertyStorage { .toOne(unsafeDowncast(wrapper, to: Self.self)) }
}

extension ToMany: PropertyWrapperStorage {
    static var kind: FieldLayout.Kind { .toMany }
    static func storage(of wrapper: AnyObject) -> PropertyStorage { .toMany(unsafeDowncast(wrapper, to: Self.self)) }
}
