import Foundation
@testable import GraphStore
import GRDB

/// Looking at and editing a store behind GraphStore's back, on either engine.
extension TemporaryStore {
    /// Runs `sql` on the store outside GraphStore (foreign keys not enforced on SQLite, as a hand
    /// edit with the `sqlite3` shell would).
    func alter(_ sql: String) throws {
        if let schema { return try schema.execute(sql) }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        try DatabaseQueue(path: path, configuration: configuration).write { db in try db.execute(sql: sql) }
    }

    /// Everything a refused open must leave as it was: the file's bytes, or the schema's tables,
    /// columns, indexes, constraints and rows.
    func state() throws -> Data {
        guard let schema else { return try bytes() }
        return Data(try schema.dump().utf8)
    }

    /// A table's column names, in order.
    func columns(_ table: String) throws -> [String] {
        if let schema {
            return try schema.rows("""
                SELECT column_name::text FROM information_schema.columns
                WHERE table_schema = '\(schema.name)' AND table_name = '\(table)' ORDER BY ordinal_position
                """).map { $0[0] }
        }
        return try DatabaseQueue(path: path).read { db in try db.columns(in: table).map(\.name) }
    }

    /// The statements that would create a table's indexes, without quotes (the primary key's left out).
    func indexDefinitions(_ table: String) throws -> [String] {
        let definitions = if let schema {
            try schema.rows("""
                SELECT indexdef FROM pg_indexes
                WHERE schemaname = '\(schema.name)' AND tablename = '\(table)' AND indexname <> '\(table)_pkey'
                """).map { $0[0] }
        } else {
            try DatabaseQueue(path: path).read { db in
                try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
                                    arguments: [table])
            }
        }
        return definitions.map { $0.replacing("\"", with: "") }
    }

    /// The names of a table's indexes (not the primary key's).
    func indexes(_ table: String) throws -> Set<String> {
        if let schema {
            return Set(try schema.rows("""
                SELECT indexname::text FROM pg_indexes
                WHERE schemaname = '\(schema.name)' AND tablename = '\(table)' AND indexname <> '\(table)_pkey'
                """).map { $0[0] })
        }
        return try DatabaseQueue(path: path).read { db in
            Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
                                    arguments: [table]))
        }
    }
}

extension PostgresTestSchema {
    /// Every row `sql` returns, each value as text ("NULL" for null).
    func rows(_ sql: String) throws -> [[String]] {
        let result = try PostgresConnection(conninfo: url).execute(sql)
        return (0..<result.rowCount).map { row in
            (0..<result.columnCount).map { column in
                let value = result.value(row, column)
                return value == .null ? "NULL" : value.text
            }
        }
    }

    /// The schema's tables (columns, types, defaults), indexes, constraints and rows, as text.
    func dump() throws -> String {
        let catalog = try rows("""
            SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '')
            FROM information_schema.columns WHERE table_schema = '\(name)' ORDER BY table_name, ordinal_position
            """) + rows("SELECT indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = '\(name)' ORDER BY indexname")
            + rows("""
                SELECT conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
                WHERE connamespace = '\(name)'::regnamespace ORDER BY conname
                """)
        var lines = catalog.map { $0[0] }
        for table in try rows("SELECT tablename::text FROM pg_tables WHERE schemaname = '\(name)' ORDER BY 1").map({ $0[0] }) {
            lines += try rows("SELECT t::text FROM \"\(name)\".\"\(table)\" t ORDER BY t::text").map { table + " " + $0[0] }
        }
        return lines.joined(separator: "\n")
    }
}

extension TemporaryStore {
    /// Rewrites the schema snapshot GraphStore keeps in the store (as an earlier GraphStore left it, say).
    func editSnapshot(_ change: (String) throws -> String) throws {
        let select = "SELECT value FROM graphstore_metadata WHERE key = 'schema'"
        let update = "UPDATE graphstore_metadata SET value = ? WHERE key = 'schema'"
        if let schema {
            let connection = try PostgresConnection(conninfo: schema.url)
            let text = try connection.query(select, []).value(0, 0).text
            try connection.query(update, [.text(try change(text))])
            return
        }
        try DatabaseQueue(path: path).write { db in
            let text = try String.fetchOne(db, sql: select)!
            try db.execute(sql: update, arguments: [try change(text)])
        }
    }
}
