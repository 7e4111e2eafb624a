import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

@Suite("narrow tables", .onTestThreads)
struct RecordBlocksTests {
    static let columns: [TableRenderer.Column] = [
        .init(header: "ID"), .init(header: "TITLE", maxWidth: 48, shrinks: true), .init(header: "NOTE", dropsWhenNarrow: true),
    ]
    static let rows = [["53719862873", "A long title about dunes at dawn", "x"], ["2", "", "y"]]

    @Test("a table that fits its narrowest width stays a table, narrowed")
    func narrowedTable() {
        let text = TableRenderer(columns: Self.columns, lineWidth: 32).render(Self.rows)
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 32 }, "\(text)")
        #expect(text.hasPrefix("ID "), "\(text)")
    }

    @Test("below it, optional columns go first, then each row is a block")
    func blocks() {
        let fewer = TableRenderer(columns: Self.columns, lineWidth: 22).render(Self.rows)
        #expect(fewer.hasPrefix("ID ") && !fewer.contains("NOTE"), "\(fewer)")
        let blocks = TableRenderer(columns: Self.columns, lineWidth: 16).render(Self.rows)
        #expect(blocks == "id:    53719862…\ntitle: A long t…\nnote:  x\n\nid:    2\nnote:  y\n", "\(blocks)")
    }
}
