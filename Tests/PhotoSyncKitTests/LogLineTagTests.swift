import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

@Suite("log line tags", .onTestThreads)
struct LogLineTagTests {
    @Test("a log line tag names the command, process and catalog, quoted when it has spaces")
    func logLineTag() {
        #expect(LogLineTag(command: "fetch", processID: 42, catalog: "/a/b.sqlite").text == "fetch[42] catalog=/a/b.sqlite")
        #expect(LogLineTag(command: "delete", processID: 7, catalog: "/my photos/c.sqlite").text == "delete[7] catalog=\"/my photos/c.sqlite\"")
        #expect(LogLineTag(command: "photosync", processID: 1).text == "photosync[1]")
    }
}
