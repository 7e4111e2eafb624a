import Foundation
import PhotoSyncTestSupport
import Testing

/// Every suite runs its tests on ``TestThreads`` (see docs/testing.md): one that does not holds
/// Swift's cooperative threads while it blocks, and starves the rest of the one test process.
@Suite(.onTestThreads) struct TestThreadsRuleTests {
    @Test func everySuiteCarriesTheTrait() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 100, "the test sources were found")
        var missing: [String] = []
        for file in files {
            let lines = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
            for (number, line) in lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                let declares = code.hasPrefix("@Suite") || (line.hasPrefix("@Test") && !code.hasPrefix("@Test("))
                    || line.hasPrefix("@Test(")
                if declares && !code.contains(".onTestThreads") { missing.append("\(file):\(number + 1)") }
            }
        }
        #expect(missing.isEmpty, "suites without .onTestThreads: \(missing)")
    }
}
