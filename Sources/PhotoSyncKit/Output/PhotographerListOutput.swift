/// `photographers` output in each format.
enum PhotographerListOutput {
    static func render(_ photographers: [PhotographerListing], as format: TabularFormat, lineWidth: Int? = nil) throws -> String {
        switch format {
        case .json:
            return try JSONOutput.render(photographers.map { Record(name: $0.name, photos: $0.photos) })
        case .jsonl:
            return try JSONLines.render(photographers.map { Record(name: $0.name, photos: $0.photos) })
        case .csv:
            return CSVWriter.render(header: ["name", "photos"], rows: photographers.map { [$0.name, String($0.photos)] })
        case .table:
            guard !photographers.isEmpty else { return "No photographers.\n" }
            let table = TableRenderer(
                columns: [.init(header: "NAME", maxWidth: 40, shrinks: true), .init(header: "PHOTOS", alignRight: true)], lineWidth: lineWidth)
            return table.render(photographers.map { [$0.name, String($0.photos)] })
        }
    }

    private struct Record: Encodable {
        var name: String
        var photos: Int
    }
}
