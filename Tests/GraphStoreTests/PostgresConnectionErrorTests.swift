import Foundation
import GraphStore
import Testing

/// Connection failures: one line naming the server, never the password.
@Suite struct PostgresConnectionErrorTests {
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
            guard case .storeUnavailable(let path, let reason) = error else { Issue.record("\(location): \(String(describing: error))"); continue }
            let message = "\(error!)"
            #expect(!message.contains(Self.password), "\(message)")
            #expect(!error!.localizedDescription.contains(Self.password))
            #expect(!message.contains("\n"), "one line: \(message)")
            #expect(path.contains("***") && !reason.isEmpty, "\(message)")
        }
    }

    /// Nothing listening: the reason is libpq's, on one line, and says so.
    @Test func anUnreachableServerIsOneClearLine() throws {
        let error = #expect(throws: GraphStoreError.self) {
            _ = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Author.self, Book.self]),
                                        location: .postgres(try Self.unusableLocations()[0]))
        }
        guard case .storeUnavailable(_, let reason) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(reason.hasSuffix("port 1 failed: Connection refused; Is the server running on that host and accepting TCP/IP connections?"), "\(reason)")
    }
}
