import Foundation

/// Shell completion of `--photographer`: the names in the catalog that `--db` (or PHOTOSYNC_DB,
/// or the default) names, read-only; nothing when there is no catalog.
enum PhotographerCompletion {
    static func names(_ arguments: [String], _ index: Int, _ prefix: String) -> [String] {
        var globals = GlobalOptions()
        if let index = arguments.firstIndex(of: "--db"), index + 1 < arguments.count { globals.db = arguments[index + 1] }
        guard let context = try? CommandContext(globals), context.catalogExists,
            let catalog = try? Catalog(path: context.databasePath, forReading: true)
        else { return [] }
        return ((try? catalog.photographers().map(\.name)) ?? []).filter { $0.hasPrefix(prefix) }
    }
}
