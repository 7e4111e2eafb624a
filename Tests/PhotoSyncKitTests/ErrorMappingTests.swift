import GraphStore
import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

/// A store failure becomes photosync's error by its kind, the same for both stores: never by
/// engine codes or message text.
@Suite(.onTestThreads) struct ErrorMappingTests {
    static let path = "/nonexistent-folder/catalog.sqlite"

    static func failure(_ kind: StoreFailure.Kind) -> StoreFailure {
        StoreFailure(kind: kind, message: "engine words", resultCode: 1234, extendedResultCode: 1234, sqlState: "ZZ999")
    }

    /// Out of memory is 71 whichever way the store says it: a failed write, a failed read, an open.
    @Test(arguments: [GraphStoreError.writeFailed(failure(.outOfMemory)), .readFailed(failure(.outOfMemory)),
                      .storeUnavailable(path: path, reason: "engine words", kind: .outOfMemory)])
    func outOfMemoryIs71(_ error: GraphStoreError) {
        let mapped = PhotoSyncError.from(error, path: Self.path)
        #expect(mapped.exitStatus == 71)
        #expect(mapped.message.hasPrefix("out of memory using catalog \(Self.path)"), "\(mapped)")
    }

    /// Other kinds are 74 with the store's own words; a disk that is not in fact full (this path's
    /// folder does not exist) is not reported as full.
    @Test(arguments: [StoreFailure.Kind.diskFull, .ioError, .busy, .uniqueViolation, .serverResourcesExhausted])
    func otherKindsAre74(_ kind: StoreFailure.Kind) {
        let mapped = PhotoSyncError.from(.writeFailed(Self.failure(kind)), path: Self.path)
        #expect(mapped.exitStatus == 74)
        #expect(mapped.message == "catalog \(Self.path): cannot write to the store: engine words (SQLSTATE ZZ999)")
    }

    @Test func aLockFailureKeepsItsOwnWords() {
        let opening = GraphStoreError.lockFailed(path: Self.path, opening: true, reason: "Permission denied", kind: .permissionDenied)
        #expect(PhotoSyncError.from(opening, path: Self.path) == .catalog("cannot open \(Self.path): Permission denied"))
        let locking = GraphStoreError.lockFailed(path: Self.path, opening: false, reason: "No locks available", kind: .other)
        #expect(PhotoSyncError.from(locking, path: Self.path) == .catalog("cannot lock \(Self.path): No locks available"))
        #expect(PhotoSyncError.from(.hardLinked(path: Self.path, links: 3), path: Self.path)
                == .catalog(PhotoSyncError.hardLinkProblem(Self.path, 3)))
    }
}
