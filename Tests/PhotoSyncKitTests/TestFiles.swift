import Foundation
import Synchronization
import Testing

/// A fresh directory under the system temporary directory, for one test: removed when the test
/// ends (its suite has the `.removesTemporaryFiles` trait, which `makeTemporaryDirectory` requires).
func makeTemporaryDirectory() throws -> String {
    guard let folders = TemporaryFolders.current else {
        throw TemporaryFolders.Missing()
    }
    let path = NSTemporaryDirectory() + "photosync-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    folders.add(path)
    return path
}

/// The folders `makeTemporaryDirectory` made during the current test.
final class TemporaryFolders: Sendable {
    @TaskLocal static var current: TemporaryFolders?
    private let paths = Mutex<[String]>([])

    func add(_ path: String) { paths.withLock { $0.append(path) } }

    func removeAll() {
        for path in paths.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String { "makeTemporaryDirectory needs the suite trait .removesTemporaryFiles" }
    }
}

/// Removes, after each test (each case of a parameterized one), the folders it made with
/// `makeTemporaryDirectory`.
struct RemovesTemporaryFiles: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        let folders = TemporaryFolders()
        defer { folders.removeAll() }
        try await TemporaryFolders.$current.withValue(folders) { try await function() }
    }
}

extension Trait where Self == RemovesTemporaryFiles {
    static var removesTemporaryFiles: Self { Self() }
}

/// Writes `text` to `name` inside a fresh temporary directory and returns the file's path.
func writeTemporaryFile(_ name: String, _ text: String, permissions: Int = 0o600) throws -> String {
    let path = try makeTemporaryDirectory() + "/" + name
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
    return path
}
