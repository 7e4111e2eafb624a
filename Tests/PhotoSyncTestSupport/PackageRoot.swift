import Foundation

/// The package root: the nearest directory above this file holding Package.swift.
public let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while url.path != "/" {
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
        url.deleteLastPathComponent()
    }
    fatalError("Package.swift not found above \(#filePath)")
}()
