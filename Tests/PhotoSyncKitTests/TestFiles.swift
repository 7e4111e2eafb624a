import Foundation

/// A fresh directory under the system temporary directory, for one test.
func makeTemporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "photosync-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Writes `text` to `name` inside a fresh temporary directory and returns the file's path.
func writeTemporaryFile(_ name: String, _ text: String, permissions: Int = 0o600) throws -> String {
    let path = try makeTemporaryDirectory() + "/" + name
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
    return path
}
