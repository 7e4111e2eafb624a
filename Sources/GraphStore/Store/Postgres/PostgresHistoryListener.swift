/// The PostgreSQL store's ``HistorySignal``: LISTEN on the store's channel on a connection of its
/// own; the payload of each notification is the token committed (``HistoryTables/notify``).
final class PostgresHistoryListener: HistorySignal {
    private let store: PostgresStore
    private var connection: PostgresConnection

    init(_ store: PostgresStore) throws {
        self.store = store
        connection = try Self.listening(store)
    }

    private static func listening(_ store: PostgresStore) throws -> PostgresConnection {
        do throws(PostgresError) {
            let connection = try PostgresConnection(conninfo: store.conninfo)
            guard case .text(let channel) = try connection.execute(HistoryTables.channelName).value(0, 0) else {
                throw PostgresError(sqlState: nil, message: "no history channel")
            }
            try connection.execute("LISTEN \"\(channel)\"")  // an identifier of letters, digits and _
            return connection
        } catch {
            throw error.unavailable(store.description, conninfo: store.conninfo)
        }
    }

    func wait(after token: HistoryToken, until deadline: ContinuousClock.Instant, _ isCancelled: () -> Bool) throws -> Bool {
        while !isCancelled(), let slice = Self.slice(until: deadline) {
            let payloads: [String]
            do {
                payloads = try connection.notifications(waitingUpTo: slice.milliseconds)
            } catch {
                // Lost (a restarted server): listen again; what was announced meanwhile is lost.
                connection = try Self.listening(store)
                return true
            }
            if payloads.contains(where: { HistoryToken($0).map { $0 > token } ?? true }) { return true }
        }
        return false
    }
}
