#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension StoreMigrator {
    /// Rewrites dates stored as seconds since 1970 as seconds since 2001, in the migration's
    /// transaction. SQLite subtracts in IEEE doubles, exactly as `Date(timeIntervalSince1970:)`
    /// does, so every converted date equals the one the former encoding read back.
    func convertLegacyDates(_ columns: [SchemaSnapshot.ColumnName], _ db: any SchemaConnection) throws {
        for name in columns {
            let column = SQL.quote(name.column)
            try db.execute("UPDATE \(SQL.quote(name.table)) SET \(column) = \(column) - ? WHERE \(column) IS NOT NULL",
                           [.real(Date.timeIntervalBetween1970AndReferenceDate)])
        }
    }
}
