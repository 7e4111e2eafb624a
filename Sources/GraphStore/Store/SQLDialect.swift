/// The SQL that differs between SQLite and PostgreSQL. Statements are written once, in SQLite's
/// spelling with `?` placeholders; these are the pieces a PostgreSQL statement spells otherwise
/// (its placeholders are renumbered by ``PostgresSQL/numberedPlaceholders(_:)``).
enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// Where a store lives, for messages.
    var storePlace: String { self == .sqlite ? "the file" : "the schema" }

    var isTrue: String { self == .sqlite ? "1" : "TRUE" }
    var isFalse: String { self == .sqlite ? "0" : "FALSE" }
    /// `!=` that counts nil as a value of its own, as Swift does.
    var nullSafeNotEqual: String { self == .sqlite ? "IS NOT" : "IS DISTINCT FROM" }

    /// `body LIMIT/OFFSET` and its arguments. SQLite needs a LIMIT before an OFFSET, and gets both
    /// bound: given a literal LIMIT under 4 its planner sorts every row rather than walk an index
    /// that gives most of the order (`list --limit 1` by title on 1M photos: 1.2 G instructions,
    /// against 0.09 G for `--limit 100`). PostgreSQL's stay literal, so its plans see the value.
    func limit(_ limit: Int?, offset: Int?) -> (sql: String, arguments: [StoredValue]) {
        guard self == .sqlite else {
            var sql = limit.map { " LIMIT \(max(0, $0))" } ?? ""
            if let offset { sql += " OFFSET \(max(0, offset))" }
            return (sql, [])
        }
        guard limit != nil || offset != nil else { return ("", []) }
        let bounds = [limit.map { Int64(max(0, $0)) } ?? -1] + (offset.map { [Int64(max(0, $0))] } ?? [])
        return (offset == nil ? " LIMIT ?" : " LIMIT ? OFFSET ?", bounds.map(StoredValue.integer))
    }

    /// Null first when ascending, last when descending (SQLite's order; PostgreSQL's is the reverse).
    /// Text compares by bytes in both: PostgreSQL's text columns and functions are `COLLATE "C"`.
    func ordered(_ key: String, ascending: Bool) -> String {
        let direction = ascending ? "ASC" : "DESC"
        return self == .sqlite ? "\(key) \(direction)" : "\(key) \(direction) NULLS \(ascending ? "FIRST" : "LAST")"
    }

    /// The key `.numericText` sorts by: SQLite's collation, or PostgreSQL's sort-key function
    /// (``PostgresFunctions``), which orders as the collation does. A whole number without leading
    /// zeros (a photo id) gets the function's key without calling it: its regular expressions, run
    /// for every row sorted, were two thirds of sorting a photographer's 2,715 photos (34 → 11 ms).
    func numericText(_ column: String) -> String {
        guard self == .postgres else { return "\(column) COLLATE \(NumericTextCollation.name)" }
        return "(CASE WHEN \(column) ~ '^[1-9][0-9]*$' THEN '0' || lpad(length(\(column))::text, 10, '0') || \(column) "
            + "ELSE \(PostgresFunctions.numericKey)(\(column)) END) COLLATE \"C\""
    }

    /// Whether `needle` occurs in `subject`.
    func contains(_ subject: String, _ needle: String) -> String {
        self == .sqlite ? "instr(\(subject), \(needle)) > 0" : "strpos(\(subject), \(needle)) > 0"
    }

    /// Whether `subject` ends with `needle` (SQLite's `substr` counts from the end when negative).
    func endsWith(_ subject: String, _ needle: String) -> String {
        let tail = self == .sqlite ? "substr(\(subject), -length(\(needle)))" : "right(\(subject), length(\(needle)))"
        return "(length(\(needle)) = 0 OR \(tail) = \(needle))"
    }
}
