#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every error GraphStore throws, with cases a caller can act on. Errors a ``ManagedObject/validateForSave()``
/// throws other than ``ValidationFailure`` reach the caller as they are.
public enum GraphStoreError: Error, Sendable, Equatable {
    /// The model's declarations are inconsistent; every problem is listed.
    case invalidModel([String])
    /// A save under the `.error` merge policy found objects that break unique constraints.
    /// Nothing was written; the context keeps its changes (fix them, change policy, or roll back).
    case constraintConflicts([ConstraintConflict])
    /// One or more objects failed validation; nothing was written.
    case validationFailed([ValidationIssue])
    /// A `deny` relationship blocked a delete; nothing was written.
    case deleteDenied(object: ObjectID, relationship: String, count: Int)
    /// The store file cannot be opened or is not a GraphStore store (not SQLite, truncated, unreadable),
    /// or its server cannot be reached; `kind` says why, the same for both stores.
    case storeUnavailable(path: String, reason: String, kind: StoreFailure.Kind = .other)
    /// Writing to the store failed (read-only file, full disk, locked past the busy timeout, a
    /// foreign key a save breaks); the failure's ``StoreFailure/kind`` says which.
    case writeFailed(StoreFailure)
    /// Reading from the store failed (an I/O error, locked past the busy timeout, a table the
    /// model expects missing from the file).
    case readFailed(StoreFailure)
    /// A file store's named lock could not be taken: its file could not be opened or created
    /// (`opening`), or the system refused the lock; `reason` is the system's.
    case lockFailed(path: String, opening: Bool, reason: String, kind: StoreFailure.Kind)
    /// A file store has several hard links: SQLite keeps its write-ahead log per name, so writers
    /// through two names corrupt one store. Nothing was locked.
    case hardLinked(path: String, links: Int)
    /// The store cannot be used with this model (written by a newer model, or a change that
    /// lightweight migration cannot apply). The file was left untouched.
    case incompatibleStore(String)
    /// A migration would add a unique constraint that stored rows break; the duplicates are listed.
    /// The file was left untouched.
    case migrationConstraintViolation(entity: String, attributes: [String], duplicates: [[String]])
    /// A stored value has the wrong type for its attribute (a hand-edited file).
    case corruptValue(entity: String, attribute: String, rowID: Int64)
    /// No object with this ID exists in the store.
    case objectNotFound(ObjectID)
    /// An object from another context was used.
    case foreignObject(ObjectID)
    /// A save under the `.error` merge policy (or any policy, for a row deleted elsewhere) found rows
    /// changed or deleted in the store since the context read them. Nothing was written; the
    /// context keeps its changes (``ObjectContext/refresh(_:mergeChanges:)`` them, or change policy).
    case mergeConflicts([MergeConflict])
}

/// `localizedDescription` is the description (Foundation's default names only the enum's case number).
extension GraphStoreError: LocalizedError {
    public var errorDescription: String? { description }
}

extension GraphStoreError {
    /// What went wrong in the engine, the same for both stores: nil for GraphStore's own errors
    /// (conflicts, validation, an incompatible model).
    public var failureKind: StoreFailure.Kind? {
        switch self {
        case .writeFailed(let failure), .readFailed(let failure): failure.kind
        case .storeUnavailable(_, _, let kind), .lockFailed(_, _, _, let kind): kind
        default: nil
        }
    }
}

/// One unique-constraint conflict: the constraint, the shared values, and the objects that collide.
public struct ConstraintConflict: Sendable, Equatable, CustomStringConvertible {
    public let entity: String
    public let attributes: [String]
    /// The constrained values, as text.
    public let values: [String]
    /// The conflicting objects of the context (temporary IDs for new objects).
    public let objects: [ObjectID]
    /// The stored row they collide with, or nil for duplicates among the context's own objects.
    public let storedObject: ObjectID?

    public var description: String {
        let key = zip(attributes, values).map { "\($0)=\($1)" }.joined(separator: ", ")
        let against = storedObject.map { "stored \($0)" } ?? "\(objects.count) new objects"
        return "\(entity) (\(key)) conflicts with \(against)"
    }
}

/// One failed validation: which object, which rule.
public struct ValidationIssue: Sendable, Equatable {
    public let object: ObjectID
    public let rule: String
}

extension GraphStoreError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalidModel(let problems): "invalid model: " + problems.joined(separator: "; ")
        case .constraintConflicts(let conflicts):
            "\(conflicts.count) unique constraint conflict(s): " + conflicts.prefix(10).map(\.description).joined(separator: "; ")
        case .validationFailed(let issues):
            "validation failed: " + issues.map { "\($0.object): \($0.rule)" }.joined(separator: "; ")
        case .deleteDenied(let object, let relationship, let count):
            "cannot delete \(object): its relationship \(relationship) denies deletion while it has \(count) object(s)"
        case .storeUnavailable(let path, let reason, _): "cannot open store \(path): \(reason)"
        case .writeFailed(let reason): "cannot write to the store: \(reason)"
        case .readFailed(let reason): "cannot read the store: \(reason)"
        case .incompatibleStore(let reason): "incompatible store: \(reason)"
        case .lockFailed(let path, let opening, let reason, _): "cannot \(opening ? "open" : "lock") \(path): \(reason)"
        case .hardLinked(let path, let links):
            "\(path) has \(links) hard links; SQLite keeps its write-ahead log per name, so several names corrupt one store: keep one name (a symlink is safe)"
        case .migrationConstraintViolation(let entity, let attributes, let duplicates):
            "migration adds a unique constraint on \(entity)(\(attributes.joined(separator: ", "))) but stored rows share values: "
                + duplicates.prefix(10).map { "(" + $0.joined(separator: ", ") + ")" }.joined(separator: ", ")
        case .corruptValue(let entity, let attribute, let rowID):
            "stored value of \(entity).\(attribute) in row \(rowID) has the wrong type"
        case .objectNotFound(let id): "no object \(id) in the store"
        case .foreignObject(let id): "object \(id) belongs to another context"
        case .mergeConflicts(let conflicts):
            "\(conflicts.count) merge conflict(s) with changes saved elsewhere: " + conflicts.prefix(10).map(\.description).joined(separator: "; ")
        }
    }
}
