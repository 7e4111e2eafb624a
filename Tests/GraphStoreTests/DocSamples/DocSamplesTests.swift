import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 30: every code sample of GraphStore's README and DocC articles compiles. The samples are
/// compiled in this folder; this test proves each document's samples are those compiled ones,
/// line for line, so a doc cannot drift from code that builds.
@Suite(.onTestThreads) struct DocSamplesTests {
    static let documents = ["Sources/GraphStore/README.md"]
        + ((try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/Sources/GraphStore/GraphStore.docc")) ?? [])
            .filter { $0.hasSuffix(".md") }.sorted().map { "Sources/GraphStore/GraphStore.docc/" + $0 }

    @Test func everyDocumentedSampleIsCompiledHere() throws {
        let compiled = try DocSampleRegions.read(folder: packageRoot + "/Tests/GraphStoreTests/DocSamples")
        var documented: Set<String> = []
        for document in Self.documents {
            let name = URL(fileURLWithPath: document).lastPathComponent
            let text = try String(contentsOfFile: packageRoot + "/" + document, encoding: .utf8)
            for (number, sample) in DocSampleRegions.swiftBlocks(in: text).enumerated() {
                let label = "\(name) #\(number + 1)"
                documented.insert(label)
                let region = try #require(compiled[label], "\(label) has no compiled copy in Tests/GraphStoreTests/DocSamples")
                #expect(region == sample, "\(label) differs from its compiled copy")
            }
        }
        #expect(Set(compiled.keys) == documented, "compiled regions without a sample: \(Set(compiled.keys).subtracting(documented))")
        #expect(documented.count >= 9)
    }
}

/// Code blocks and compiled regions compared as lines without indentation or blank lines.
enum DocSampleRegions {
    static func normalized<S: Sequence>(_ lines: S) -> [String] where S.Element: StringProtocol {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The ```swift blocks of a Markdown text, in order. A package manifest fragment (first line
    /// `// Package.swift ...`) is not a sample: it cannot compile in a target.
    static func swiftBlocks(in text: String) -> [[String]] {
        var blocks: [[String]] = [], current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" { current = [] }
            else if let lines = current, trimmed == "```" {
                if !(lines.first.map { $0.trimmingCharacters(in: .whitespaces).hasPrefix("// Package.swift") } ?? false) {
                    blocks.append(normalized(lines))
                }
                current = nil
            } else { current?.append(line) }
        }
        return blocks
    }

    /// The regions between `// doc: NAME #N` and `// end doc` in the Swift files of a folder,
    /// without their `// scaffold` lines.
    static func read(folder: String) throws -> [String: [String]] {
        var regions: [String: [String]] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".swift") {
            var label: String?, lines: [Substring] = []
            for line in try String(contentsOfFile: folder + "/" + file, encoding: .utf8).split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("// doc: ") { label = String(trimmed.dropFirst(8)); lines = [] }
                else if trimmed == "// end doc", let done = label { regions[done] = normalized(lines); label = nil }
                else if label != nil, !trimmed.hasSuffix("// scaffold") { lines.append(line) }
            }
        }
        return regions
    }
}
