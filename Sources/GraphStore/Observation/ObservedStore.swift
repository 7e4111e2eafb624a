/// The store every container writes through: after a write commits, it tells the container's
/// observations which entities it changed. Every write path passes here (context saves, import
/// sessions, copies), so none can be missed; while nothing observes, writes go straight through.
final class ObservedStore: PersistentStore {
    let base: any PersistentStore
    let broadcaster: SaveBroadcaster

    init(_ base: any PersistentStore, broadcaster: SaveBroadcaster) {
        (self.base, self.broadcaster) = (base, broadcaster)
    }

    var model: ManagedObjectModel { base.model }

    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { try base.read(body) }

    func write<T>(deferringForeignKeys: Bool, _ body: (any StoreWriter) throws -> T) throws -> T {
        guard broadcaster.isObserved else {
            let result = try base.write(deferringForeignKeys: deferringForeignKeys, body)
            // An observation that began meanwhile may have read before this commit: tell it.
            if broadcaster.isObserved { broadcaster.post(nil) }
            return result
        }
        var touched = Set<String>()
        let result = try base.write(deferringForeignKeys: deferringForeignKeys) { writer in
            let recording = TouchRecordingWriter(writer)
            defer { touched = recording.touched }
            return try body(recording)
        }
        if !touched.isEmpty { broadcaster.post(touched) }
        return result
    }
}
