import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// A fleet goes with its flagship: a ship's `prepareForDeletion` deletes its fleet, whose cascade
/// then deletes the other ships, which the context never loaded.
final class Fleet: ManagedObject {
    @Attribute(.unique) var name = ""
    @ToMany(inverse: \Ship.$fleet, deleteRule: .cascade) var ships: [Ship]
}

final class Ship: ManagedObject {
    @Attribute(.unique) var name = ""
    @Attribute var isFlagship = false
    @ToOne(deleteRule: .nullify) var fleet: Fleet?

    override func prepareForDeletion() {
        HookLog.current?.record("ship:\(name)")
        if isFlagship, let fleet { context?.delete(fleet) }
    }
}

/// Owners deleted during delete propagation (by hooks, or by cascades) load their cascading
/// to-manys together (issue 24: one query per photographer before); every rule must still hold
/// for each of them as if each list were read alone.
@Suite(.onTestThreads) struct CascadeFromHookTests {
    private static let fleets = 40
    private static let shipsPerFleet = 5

    /// Fleets f0…f39 with ships "f0-s0"…, the first of each its flagship; fleet "home" with two ships.
    private func seed(_ store: TestStore) throws {
        let context = try store.open().newContext()
        for (fleetName, count) in (0..<Self.fleets).map({ ("f\($0)", Self.shipsPerFleet) }) + [("home", 2)] {
            let fleet = context.insert(Fleet.self)
            fleet.name = fleetName
            for index in 0..<count {
                let ship = context.insert(Ship.self)
                (ship.name, ship.isFlagship, ship.fleet) = ("\(fleetName)-s\(index)", index == 0 && fleetName != "home", fleet)
            }
        }
        try context.save()
    }

    @Test(arguments: Location.allCases)
    func eachFleetAFlagshipTookGoesWithAllItsShips(_ location: Location) throws {
        let store = try TestStore(location, entities: [Fleet.self, Ship.self])
        try seed(store)
        let context = try store.open().newContext()
        // Every other fleet's flagship, fetched alone: no fleet's list is loaded.
        let doomed = (0..<Self.fleets).filter { $0.isMultiple(of: 2) }
        let flagships = try context.all(Ship.self, where: .isIn(\.$name, doomed.map { "f\($0)-s0" }))
        #expect(flagships.count == doomed.count)
        var changes: ChangeSet?
        context.onDidSave { changes = $0 }
        let log = HookLog()
        try HookLog.$current.withValue(log) {
            for ship in flagships { context.delete(ship) }
            try context.save()
        }
        #expect(log.count("ship:") == doomed.count * Self.shipsPerFleet)
        #expect(Set(log.events).count == log.events.count, "a hook ran twice")
        #expect(changes?.deleted(Fleet.self).count == doomed.count)
        #expect(changes?.deleted(Ship.self).count == doomed.count * Self.shipsPerFleet)
        let reader = try store.reader()
        let kept = (0..<Self.fleets).filter { !$0.isMultiple(of: 2) }.map { "f\($0)" } + ["home"]
        #expect(try reader.all(Fleet.self).map(\.name).sorted() == kept.sorted())
        let ships = try reader.all(Ship.self)
        #expect(ships.count == kept.count * Self.shipsPerFleet - (Self.shipsPerFleet - 2))
        #expect(ships.allSatisfy { ship in ship.fleet.map { ship.name.hasPrefix($0.name + "-") } ?? false })
    }

    /// Some of a doomed fleet's ships are loaded (one changed), others are not: each goes once.
    @Test(arguments: [Location.file, .postgres])
    func loadedAndUnloadedShipsOfAFleetGoTogether(_ location: Location) throws {
        let store = try TestStore(location, entities: [Fleet.self, Ship.self])
        try seed(store)
        let context = try store.open().newContext()
        let loaded = try context.all(Ship.self, where: .isIn(\.$name, ["f1-s2", "f1-s3", "f3-s4"]))
        loaded[0].isFlagship = true
        for flagship in try context.all(Ship.self, where: .isIn(\.$name, ["f1-s0", "f3-s0"])) { context.delete(flagship) }
        try context.save()
        #expect(loaded.allSatisfy { $0.isDeleted })
        let reader = try store.reader()
        #expect(try reader.count(FetchRequest<Ship>(predicate: .isIn(\.$name, (0..<5).flatMap { ["f1-s\($0)", "f3-s\($0)"] }))) == 0)
        #expect(try reader.count(FetchRequest<Fleet>()) == Self.fleets - 1)
    }
}
