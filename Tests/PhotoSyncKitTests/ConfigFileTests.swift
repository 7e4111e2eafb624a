import Foundation
import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

@Suite("Config file", .removesTemporaryFiles, .onTestThreads)
struct ConfigFileTests {
    @Test("every documented key is read")
    func allKeys() throws {
        let layer = try ConfigFile.parse(
            """
            endpoint: https://example.com/rest/
            api_key: abc123
            per_page: 250
            max_pages: 4
            merge_policy: store-trump
            timeout: 7.5
            retries: 0
            db: /var/lib/photosync/c.sqlite
            """, path: "/etc/p.yaml")
        #expect(
            layer
                == SettingsLayer(
                    endpoint: "https://example.com/rest/", apiKey: "abc123", perPage: 250, maxPages: 4,
                    mergePolicy: .storeTrump, timeout: 7.5, retries: 0, db: "/var/lib/photosync/c.sqlite"))
    }

    @Test("the example config in the repository is valid")
    func exampleConfig() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/photosync.example.yaml").path
        let layer = try ConfigFile.parse(try String(contentsOfFile: path, encoding: .utf8), path: path)
        #expect(layer.perPage == 100)
        #expect(layer.mergePolicy == .objectTrump)
    }

    @Test("an empty file and keys without values set nothing")
    func emptyValues() throws {
        #expect(try ConfigFile.parse("", path: "/p.yaml") == SettingsLayer())
        #expect(try ConfigFile.parse("# only a comment\n", path: "/p.yaml") == SettingsLayer())
        #expect(try ConfigFile.parse("per_page:\napi_key: ~\n", path: "/p.yaml") == SettingsLayer())
    }

    @Test("an unknown key names the key and the file, suggesting a near match")
    func unknownKey() {
        #expect(throws: PhotoSyncError.configuration("config /etc/p.yaml: unknown key \"per_pag\" (did you mean \"per_page\"?)")) {
            try ConfigFile.parse("per_pag: 3\n", path: "/etc/p.yaml")
        }
        #expect(
            throws: PhotoSyncError.configuration(
                "config /etc/p.yaml: unknown key \"colour\" (known keys: endpoint, api_key, per_page, max_pages, merge_policy, timeout, max_time, retries, db, log_file, api_budget, search_user, search_tags, search_text, ca_file, files_dir, sizes, download_max_bytes, download, serve_remote_images, history_days, recheck_per_run)")
        ) {
            try ConfigFile.parse("colour: red\n", path: "/etc/p.yaml")
        }
    }

    @Test(
        "a wrong type or range names the key, the file and the line",
        arguments: [
            ("per_page: ten\n", "config /p.yaml: per_page: expected an integer, got \"ten\" (line 1)"),
            ("retries: 2\nmax_pages: 1.5\n", "config /p.yaml: max_pages: expected an integer, got \"1.5\" (line 2)"),
            ("timeout: soon\n", "config /p.yaml: timeout: expected a number, got \"soon\" (line 1)"),
            ("timeout: 0\n", "config /p.yaml: timeout: must be greater than 0, got 0 (line 1)"),
            ("per_page: 501\n", "config /p.yaml: per_page: must be between 1 and 500, got 501 (line 1)"),
            ("retries: 11\n", "config /p.yaml: retries: must be between 0 and 10, got 11 (line 1)"),
            (
                "merge_policy: newest\n",
                "config /p.yaml: merge_policy: must be one of object-trump, store-trump, error, got \"newest\" (line 1)"
            ),
            ("endpoint: api.example.com\n", "config /p.yaml: endpoint: must be an http(s):// or file:// URL, got \"api.example.com\" (line 1)"),
            ("retries: [1, 2]\n", "config /p.yaml: retries: expected a single value, not a list or mapping (line 1)"),
            ("- per_page\n", "config /p.yaml: expected \"key: value\" lines at the top level"),
        ])
    func wrongValues(yaml: String, message: String) {
        #expect(throws: PhotoSyncError.configuration(message)) { try ConfigFile.parse(yaml, path: "/p.yaml") }
    }

    @Test("invalid YAML is one line naming the file")
    func invalidYAML() {
        let error = #expect(throws: PhotoSyncError.self) { try ConfigFile.parse("per_page: [\n", path: "/p.yaml") }
        #expect(error?.exitStatus == 78)
        #expect(error?.message.hasPrefix("config /p.yaml: invalid YAML: ") == true)
        #expect(error?.message.contains("\n") == false)
    }

    @Test("a missing file is a configuration error")
    func missingFile() {
        #expect(throws: PhotoSyncError.configuration("config /nonexistent/p.yaml: no such file")) {
            try ConfigFile.load(path: "/nonexistent/p.yaml")
        }
    }

    @Test("an API key in a file others can read earns a chmod warning")
    func permissionWarning() throws {
        let shared = try writeTemporaryFile("config.yaml", "api_key: abc\n", permissions: 0o644)
        #expect(
            try ConfigFile.load(path: shared).warnings
                == ["config \(shared) holds an api_key and is readable by other users; run: chmod 600 \(shared)"])
        let groupReadable = try writeTemporaryFile("config.yaml", "api_key: abc\n", permissions: 0o640)
        #expect(try ConfigFile.load(path: groupReadable).warnings.count == 1)
        let privateFile = try writeTemporaryFile("config.yaml", "api_key: abc\n", permissions: 0o600)
        #expect(try ConfigFile.load(path: privateFile).warnings.isEmpty)
        let noKey = try writeTemporaryFile("config.yaml", "per_page: 5\n", permissions: 0o644)
        #expect(try ConfigFile.load(path: noKey).warnings.isEmpty)
    }
}
