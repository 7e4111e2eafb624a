import Foundation
@testable import GraphStore
import PhotoSyncTestSupport
import Testing

/// Connection failures: one line naming the server, never the password.
@Suite(.onTestThreads) struct PostgresConnectionErrorTests {
    static let password = "s3cret-Pa55"

    /// Servers that cannot be used, each named with a password: a port nothing listens on, a
    /// database that does not exist, a URL libpq cannot parse (its message quotes the password's
    /// token), and libpq's `key=value` form.
    static func unusableLocations() throws -> [String] {
        let server = try #require(URLComponents(string: try PostgresTestSchema.serverURL()))
        let (host, user) = (server.host ?? "127.0.0.1", server.user ?? "postgres")
        return [
            "postgresql://\(user):\(password)@\(host):1/\(server.path.dropFirst())",
            "postgresql://\(user):\(password)@\(host):\(server.port ?? 5432)/graphstore_no_such_db",
            "postgres://\(user)@\(host):1/db?password=\(password)&connect_timeout=5",
            "postgresql://\(user):\(password)%zz@\(host):1/db",
            "host=\(host) port=1 user=\(user) password=\(password) dbname=db",
            "host=\(host) port=1 user=\(user) password='\(password)' dbname=db",
        ]
    }

    @Test func anUnusableServerIsUnavailableInOneLineWithoutThePassword() throws {
        for location in try Self.unusableLocations() {
            let error = #expect(throws: GraphStoreError.self) {
                _ = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Author.self, Book.self]), location: .postgres(location))
            }
            guard case .storeUnavailable(let path, let reason, _) = error else { Issue.record("\(location): \(String(describing: error))"); continue }
            let message = "\(error!)"
            #expect(!message.contains(Self.password), "\(message)")
            #expect(!error!.localizedDescription.contains(Self.password))
            #expect(!message.contains("\n"), "one line: \(message)")
            #expect(path.contains("***") && !reason.isEmpty, "\(message)")
            let probe = #expect(throws: GraphStoreError.self) { _ = try PersistentContainer.storeExists(at: .postgres(location)) }
            #expect(probe.map { !"\($0)".contains(Self.password) && !"\($0)".contains("\n") } == true, "\(String(describing: probe))")
        }
    }

    /// Nothing listening: the reason is libpq's, on one line, and says so.
    @Test func anUnreachableServerIsOneClearLine() throws {
        let error = #expect(throws: GraphStoreError.self) {
            _ = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Author.self, Book.self]),
                                        location: .postgres(try Self.unusableLocations()[0]))
        }
        guard case .storeUnavailable(_, let reason, _) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(reason.hasSuffix("port 1 failed: Connection refused; Is the server running on that host and accepting TCP/IP connections?"), "\(reason)")
    }
}

/// Connections a container keeps between transactions may be closed by the server meanwhile.
@Suite(.onTestThreads) struct PostgresIdleConnectionTests {
    /// The server ends every connection of the container (a restart, an idle timeout): the next
    /// read and the next save run on new connections, without an error.
    @Test func connectionsTheServerClosedAreReplacedUnnoticed() throws {
        let store = try TemporaryStore(.postgres)
        let schema = try #require(store.schema)
        let application = "gs_idle_\(schema.name)"
        let model = try ManagedObjectModel(version: 1, entities: [Author.self, Book.self])
        let container = try PersistentContainer(model: model, location: .postgres(schema.url + "&application_name=\(application)"))
        let context = container.newContext()
        context.insert(Author.self).name = "Ana"
        try context.save()
        _ = try container.newContext().count(FetchRequest<Author>())
        let ended = try schema.rows("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '\(application)'")
        #expect(ended == [["1"]], "the container's idle connection")
        #expect(try container.newContext().count(FetchRequest<Author>()) == 1)
        _ = try schema.rows("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '\(application)'")
        let later = container.newContext()
        later.insert(Author.self).name = "Bo"
        try later.save()
        #expect(try container.newContext().all(Author.self, sortBy: [.ascending(\.$name)]).map(\.name) == ["Ana", "Bo"])
    }
}
