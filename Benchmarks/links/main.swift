// The links benchmark's GraphStore side (Benchmarks/links_bench.py): notes with a unique slug and a
// many-to-many to labels, imported through an import session whose records give each note's
// complete label set. Benchmarks/floor/links_floor.c does the same work on the SQLite C API.
//
// usage: links-bench DB NOTES first|changed|same
//   first:   a new store, every note inserted with its set (pages of 500 notes, one save each);
//   changed: every other note's set replaced (`object-trump`), the others given as stored;
//   same:    the `changed` sets again: nothing to write.
// Prints one JSON line: the notes' counts (the driver times the process, CPU time included).
// LINKS_BENCH_HISTORY=1 opens the store with persistent history (links recorded as updates).
import Foundation
import GraphStore

final class Label: ManagedObject {
    @Attribute(.unique) var name = ""
    @ToMany var notes: [Note]
}

final class Note: ManagedObject {
    @Attribute(.unique) var slug = ""
    @Attribute var title = ""
    @ToMany(inverse: \Label.$notes) var labels: [Label]
}

/// The labels of note `i` (0 to 5 of a vocabulary of 1,000), shifted by one for even notes after a change.
func labelIndices(of note: Int, changed: Bool) -> [Int] {
    let shift = changed && note % 2 == 0 ? 1 : 0
    return (0..<(note % 6)).map { (note * 7 + $0 * 131 + shift) % 1000 }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let notes = Int(arguments[2]), ["first", "changed", "same"].contains(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: links-bench DB NOTES first|changed|same\n".utf8))
    exit(2)
}
let changed = arguments[3] != "first"
let labelNames = (0..<1000).map { String(format: "label-%04d", $0) }
let history = ProcessInfo.processInfo.environment["LINKS_BENCH_HISTORY"] == "1"
let container = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Label.self, Note.self]), location: .file(arguments[1]),
                                        tracksHistory: history)
let counts = try container.importing(mergePolicy: .objectTrump) { session in
    for start in stride(from: 0, to: notes, by: 500) {
        var labels = ImportRecords(Label.self, key: \.$name)
        var records = ImportRecords(Note.self, key: \.$slug)
        let (title, members) = (records.field(\.$title), records.members(\.$labels))
        records.reserveCapacity(500)
        for note in start..<min(start + 500, notes) {
            let set = labelIndices(of: note, changed: changed).map { labels.append(labelNames[$0]) }
            records.append(String(format: "note-%07d", note)) { record in
                record[title] = "Note \(note)"
                record[members] = set
            }
        }
        try session.save(labels, records)
    }
    return session.counts(Note.self)
}
print(#"{"inserted":\#(counts.inserted),"updated":\#(counts.updated),"unchanged":\#(counts.unchanged)}"#)
