extension ObjectContext {
    /// Writes every pending change in one transaction: all of it or none of it.
    ///
    /// In order: `willSave` hooks; delete propagation (`prepareForDeletion`, delete rules);
    /// validation; then, inside one store transaction, deletes, unique-constraint resolution under
    /// ``mergePolicy``, inserts, updates and many-to-many join rows. Observers then receive the ``ChangeSet``.
    /// A child context's save pushes its changes into the parent instead of the store.
    ///
    /// A failed save writes nothing and leaves the context's changes in place: fix them, change the
    /// merge policy, or ``rollback()``, and save again.
    ///
    /// - Throws: ``GraphStoreError/foreignObject(_:)`` when a changed object points at another
    ///   context's object; ``GraphStoreError/mergeConflicts(_:)`` when rows it updates or deletes
    ///   changed in the store since this context read them (see ``MergePolicy``);
    ///   ``GraphStoreError/constraintConflicts(_:)``, ``GraphStoreError/validationFailed(_:)``,
    ///   ``GraphStoreError/deleteDenied(object:relationship:count:)``, or a failed write.
    public func save() throws {
        try checkDestinationsAreOwned()
        if let parent {
            try push(into: parent)
            return
        }
        guard hasChanges else { return }
        try prepareForSave()
        let outcome = try planned { planner in
            try store.write(deferringForeignKeys: defersForeignKeys) { writer in
                writer.describeTransaction(author: transactionAuthor, context: name)
                return try planner.execute(writer)
            }
        }
        let changes = apply(outcome)
        notify(changes)
    }

    /// Saves into a transaction another save opened (``ImportSession/save(preparing:finishing:)``):
    /// hooks, validation and the merge policy as in ``save()``, through `writer`. No observer hears
    /// of it (the enclosing save may still fail); the store writes no deferral for deletes, so a
    /// context that deletes is refused.
    func save(through writer: any StoreWriter) throws {
        precondition(parent == nil && deletedObjects.isEmpty, "a save inside another's transaction is a root context's and deletes nothing")
        try checkDestinationsAreOwned()
        guard hasChanges else { return }
        try prepareForSave()
        precondition(deletedObjects.isEmpty, "a save inside another's transaction deletes nothing")
        let outcome = try reading(through: writer) { try SavePlanner(context: self).execute(writer) }
        _ = apply(outcome)
    }

    /// Only a save that deletes rows needs every foreign key deferred (a `.deny` key is `RESTRICT`,
    /// which SQLite checks at once otherwise); the pragma that defers them makes SQLite compile
    /// the connection's statements again, so other saves go without.
    private var defersForeignKeys: Bool { !deletedObjects.isEmpty }

    /// What ``save()`` would write, computed in a store transaction that is then rolled back.
    ///
    /// Hooks, delete propagation, validation and merge-policy resolution run exactly as for a save,
    /// and the same errors are thrown; nothing is written and the context keeps its changes.
    /// (A dry run: `photosync fetch --dry-run` reports these counts.)
    public func previewSave() throws -> ChangeSet {
        precondition(parent == nil, "previewSave() needs a context on the store: a child's save only pushes to its parent; save the child, then preview the parent")
        guard hasChanges else { return ChangeSet() }
        try checkDestinationsAreOwned()
        try prepareForSave()
        return try planned { planner in
            var changes = ChangeSet()
            do {
                try store.write(deferringForeignKeys: defersForeignKeys) { writer in
                    changes = try planner.execute(writer).changes
                    throw PreviewRollback()
                }
            } catch is PreviewRollback {}
            return changes
        }
    }

    /// Runs `transaction` with a new planner. When another connection stored a key first or its
    /// transaction overlapped this one (PostgreSQL), the save runs again from its lookups, so the
    /// merge policy decides on what is stored now; after a few tries it is a failed write.
    private func planned<T>(_ transaction: (SavePlanner) throws -> T) throws -> T {
        for attempt in 1... {
            do {
                return try transaction(SavePlanner(context: self))
            } catch let violation as UniqueViolation {
                if attempt == Self.saveAttempts { throw GraphStoreError.writeFailed(violation.failure) }
            } catch let failure as SerializationFailure {
                if attempt == Self.saveAttempts { throw GraphStoreError.writeFailed(failure.failure) }
            }
        }
        fatalError("unreachable")
    }

    /// How many times a save runs before contention from other connections fails it.
    static let saveAttempts = 8

    /// `willSave`, delete propagation and validation. Delete propagation can bring in objects
    /// (cascade victims, deletes made in prepareForDeletion, nullified inverses); they get
    /// willSave too, once, and so on until stable.
    private func prepareForSave() throws {
        var called = Set<ObjectIdentifier>()
        var prepared = Set<ObjectIdentifier>()
        repeat {
            callWillSave(&called)
            try propagateDeletes(&prepared)
        } while (insertedObjects + updatedObjects + deletedObjects).contains { !called.contains(ObjectIdentifier($0)) }
        try checkDestinationsAreOwned()  // hooks may have linked one
        try validate()
    }

    private func callWillSave(_ called: inout Set<ObjectIdentifier>) {
        var pending = insertedObjects + updatedObjects + deletedObjects
        while !pending.isEmpty {
            for object in pending where called.insert(ObjectIdentifier(object)).inserted { object.willSave() }
            pending = (insertedObjects + updatedObjects + deletedObjects).filter { !called.contains(ObjectIdentifier($0)) }
        }
    }

    private func validate() throws {
        var issues: [ValidationIssue] = []
        for object in insertedObjects + updatedObjects {
            do {
                try object.validateForSave()
            } catch let failure as ValidationFailure {
                issues.append(ValidationIssue(object: object.objectID, rule: failure.rule))
            }
        }
        if !issues.isEmpty { throw GraphStoreError.validationFailed(issues) }
    }

    /// Makes the committed outcome true in memory: folds, identities, merged values, registrations.
    private func apply(_ outcome: SaveOutcome) -> ChangeSet {
        for (discarded, survivor) in outcome.folds { fold(discarded, into: outcome.final(survivor)) }
        registered.reserveCapacity(registered.count + outcome.saved.count)
        for saved in outcome.saved { apply(saved, outcome) }
        for id in outcome.emptiedOwners {
            guard let owner = registered[id] else { continue }
            owner.state = .deleted
            deletedObjects.append(owner)
        }
        for object in deletedObjects {
            if let rowID = object.rowID { registered[.permanent(object.entity.name, rowID)] = nil }
            object.context = nil
        }
        clearPendingChanges()
        for saved in outcome.saved { saved.object.didSave() }
        return outcome.changes
    }

    private func apply(_ saved: SaveOutcome.Saved, _ outcome: SaveOutcome) {
        let object = saved.object
        let entity = object.entity
        if object.rowID == nil {
            object.rowID = saved.rowID
            object.objectID = .permanent(entity.name, saved.rowID)
        }
        if let attributes = saved.attributes {
            for (index, attribute) in entity.storedAttributes.enumerated() { _ = object.attribute(attribute.slot).assign(attributes[index]) }
        }
        if let destinations = saved.destinations {
            for (index, relationship) in entity.toOneRelationships.enumerated() {
                let toOne = object.toOne(relationship.slot)
                switch destinations[index] {
                case .object(let destination):
                    let final = outcome.final(destination)
                    if toOne.anyDestination !== final { toOne.set(final) }
                case .row(let rowID):
                    // The merge kept the stored destination: move the object between the inverse to-manys too.
                    repoint(object, relationship, to: rowID)
                }
            }
        }
        if saved.adopted {
            object.forEachToMany { $0.becomeFault() }
        }
        object.forEachToMany { $0.commitJoinChanges() }
        object.forEachAttribute { $0.commit() }
        for relationship in entity.toOneRelationships {
            let toOne = object.toOne(relationship.slot)
            toOne.commit(rowID: toOne.loadedDestination?.rowID ?? toOne.rowID)
        }
        object.state = .clean
        registered[object.objectID] = object
    }

    /// Moves a discarded duplicate's to-many members onto its survivor and takes it out of its
    /// to-one destinations, then forgets it.
    private func fold(_ discarded: ManagedObject, into survivor: ManagedObject) {
        for relationship in discarded.entity.relationships {
            if relationship.isManyToMany {
                foldLinks(of: discarded, into: survivor, relationship)
            } else if relationship.isToMany {
                for member in discarded.toMany(relationship.slot).anyMembers {
                    member.toOne(member.entity.relationship(named: relationship.inverseName!)!.slot).setPrimitive(survivor)
                    survivor.toMany(relationship.slot).primitiveInsert(member)
                }
            } else if let destination = discarded.toOne(relationship.slot).loadedDestination,
                let inverse = relationship.inverseName.flatMap(destination.entity.relationship(named:))
            {
                destination.toMany(inverse.slot).primitiveRemove(discarded)
            }
        }
        discarded.state = .discarded  // later changes stop the process: they could never be saved
        discarded.context = nil
    }
}

/// Thrown inside ``ObjectContext/previewSave()``'s transaction to roll it back.
private struct PreviewRollback: Error {}
