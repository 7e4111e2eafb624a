import Foundation
import GRDB
import PhotoSyncTestSupport
import Testing

/// Issue 12's adopter report: after `DROP INDEX Photo_unique_unique` a fetch stored every photo
/// twice (inserts trust the index). Every command now refuses such a catalog, naming what differs.
@Suite("hand-altered catalog", .onTestThreads)
struct HandAlteredCatalogTests {
    @Test func aCatalogWithoutItsUniqueIndexIsRefusedByEveryCommand() async throws {
        try await withSandbox { sandbox in
            let closed = try closedLoopbackURL()
            try await CatalogFileTests.realCatalog(sandbox)
            do {
                let queue = try DatabaseQueue(path: sandbox.db)
                try await queue.write { db in try db.execute(sql: #"DROP INDEX "Photo_unique_unique""#) }
                try queue.close()
            }
            let before = try #require(sandbox.fileBytes())
            for command in [["list"], ["status"], ["fetch", "--url", closed, "--api-key", "k", "--retries", "0"]] {
                let result = try await sandbox.run(command + ["--db", sandbox.db])
                #expect(result.status == 74, "\(command): \(result)")
                #expect(result.stderrLines.count == 1, "\(command): \(result)")
                #expect(result.stderrLines.first?.contains("unique index on Photo(unique) is missing") == true, "\(command): \(result)")
                #expect(sandbox.fileBytes() == before, "\(command) left the file as it was")
                #expect(!FileManager.default.fileExists(atPath: sandbox.db + "-wal"), "\(command) left no -wal")
                #expect(!FileManager.default.fileExists(atPath: sandbox.db + "-shm"), "\(command) left no -shm")
            }
        }
    }
}
