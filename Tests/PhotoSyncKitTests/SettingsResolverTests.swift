import Foundation
import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

@Suite("Settings precedence", .removesTemporaryFiles, .onTestThreads)
struct SettingsResolverTests {
    let file = ConfigFile(
        path: "/home/ana/.config/photosync/config.yaml",
        settings: SettingsLayer(
            endpoint: "file:///from-file/", apiKey: "file-key", perPage: 200, maxPages: 20, mergePolicy: .storeTrump,
            timeout: 5, retries: 1, db: "~/photos/c.sqlite"),
        warnings: [])

    @Test("with nothing set, the defaults apply")
    func defaults() throws {
        let resolver = SettingsResolver(environment: ["PHOTOSYNC_API_KEY": "k"])
        let settings = try resolver.fetchSettings(flags: SettingsLayer(), pages: nil, config: nil, dryRun: false, waitForLock: false)
        #expect(settings.endpoint == "https://api.flickr.com/services/rest/")
        #expect(settings.perPage == 100)
        #expect(settings.maxPages == 10)
        #expect(settings.mergePolicy == .objectTrump)
        #expect(settings.timeout == 30)
        #expect(settings.retries == 3)
        #expect(settings.pages == nil)
    }

    @Test("the config file overrides the defaults")
    func fileOverDefaults() throws {
        let settings = try SettingsResolver(environment: [:])
            .fetchSettings(flags: SettingsLayer(), pages: nil, config: file, dryRun: false, waitForLock: false)
        #expect(settings.endpoint == "file:///from-file/")
        #expect(settings.apiKey == "file-key")
        #expect(settings.perPage == 200)
        #expect(settings.maxPages == 20)
        #expect(settings.mergePolicy == .storeTrump)
        #expect(settings.timeout == 5)
        #expect(settings.retries == 1)
    }

    @Test("the environment overrides the file, flags override both")
    func flagsOverEnvironmentOverFile() throws {
        let environment = [
            "PHOTOSYNC_URL": "file:///from-env/", "PHOTOSYNC_API_KEY": "env-key", "PHOTOSYNC_PER_PAGE": "300",
            "PHOTOSYNC_TIMEOUT": "6", "PHOTOSYNC_MERGE_POLICY": "error",
        ]
        let flags = SettingsLayer(endpoint: "file:///from-flag/", perPage: 400)
        let settings = try SettingsResolver(environment: environment)
            .fetchSettings(flags: flags, pages: 2, config: file, dryRun: true, waitForLock: true)
        #expect(settings.endpoint == "file:///from-flag/")  // flag
        #expect(settings.perPage == 400)  // flag
        #expect(settings.apiKey == "env-key")  // environment
        #expect(settings.timeout == 6)  // environment
        #expect(settings.mergePolicy == .error)  // environment
        #expect(settings.maxPages == 20)  // file
        #expect(settings.retries == 1)  // file
        #expect(settings.pages == 2)
        #expect(settings.dryRun && settings.waitForLock)
    }

    @Test("an empty environment variable counts as unset")
    func emptyEnvironmentValue() throws {
        let settings = try SettingsResolver(environment: ["PHOTOSYNC_PER_PAGE": "", "PHOTOSYNC_URL": ""])
            .fetchSettings(flags: SettingsLayer(), pages: nil, config: file, dryRun: false, waitForLock: false)
        #expect(settings.perPage == 200)
        #expect(settings.endpoint == "file:///from-file/")
    }

    @Test("a bad environment value names its variable")
    func badEnvironmentValue() {
        #expect(throws: PhotoSyncError.configuration("PHOTOSYNC_RETRIES: expected an integer, got \"many\"")) {
            try SettingsResolver(environment: ["PHOTOSYNC_RETRIES": "many"])
                .fetchSettings(flags: SettingsLayer(), pages: nil, config: file, dryRun: false, waitForLock: false)
        }
        #expect(throws: PhotoSyncError.configuration("PHOTOSYNC_MAX_PAGES: must be at least 1, got 0")) {
            try SettingsResolver(environment: ["PHOTOSYNC_MAX_PAGES": "0"]).environmentSettings()
        }
    }

    @Test("an http(s) endpoint without an API key names the three ways to set one")
    func missingAPIKey() {
        let message =
            "no API key for https://api.flickr.com/services/rest/: set PHOTOSYNC_API_KEY, "
            + "or api_key in /home/ana/.config/photosync/config.yaml (mode 0600); --api-key works too but shows in ps"
        #expect(throws: PhotoSyncError.configuration(message)) {
            try SettingsResolver(environment: ["HOME": "/home/ana"])
                .fetchSettings(flags: SettingsLayer(), pages: nil, config: nil, dryRun: false, waitForLock: false)
        }
    }

    @Test("a file:// endpoint needs no API key")
    func fileEndpointWithoutKey() throws {
        let settings = try SettingsResolver(environment: [:]).fetchSettings(
            flags: SettingsLayer(endpoint: "file:///srv/feed/"), pages: nil, config: nil, dryRun: false, waitForLock: false)
        #expect(settings.apiKey == nil)
        #expect(settings.endpoint == "file:///srv/feed/")
    }

    @Test("the catalog path: --db, then PHOTOSYNC_DB, then the file's db, then XDG_DATA_HOME, then HOME")
    func databasePath() throws {
        let home = ["HOME": "/home/ana"]
        let everything = home.merging(["PHOTOSYNC_DB": "/env/c.sqlite", "XDG_DATA_HOME": "/xdg"]) { a, _ in a }
        #expect(try SettingsResolver(environment: everything).databasePath(flag: "/flag/c.sqlite", config: file) == "/flag/c.sqlite")
        #expect(try SettingsResolver(environment: everything).databasePath(flag: nil, config: file) == "/env/c.sqlite")
        #expect(try SettingsResolver(environment: home).databasePath(flag: nil, config: file) == "/home/ana/photos/c.sqlite")
        #expect(
            try SettingsResolver(environment: ["HOME": "/home/ana", "XDG_DATA_HOME": "/xdg"]).databasePath(flag: nil, config: nil)
                == "/xdg/photosync/catalog.sqlite")
        #expect(
            try SettingsResolver(environment: ["HOME": "/home/ana", "XDG_DATA_HOME": "relative"]).databasePath(flag: nil, config: nil)
                == "/home/ana/.local/share/photosync/catalog.sqlite")
        #expect(throws: PhotoSyncError.self) { try SettingsResolver(environment: [:]).databasePath(flag: nil, config: nil) }
    }

    @Test("the config file: --config, then PHOTOSYNC_CONFIG, then the XDG default only if it exists")
    func configLocation() throws {
        let explicit = try writeTemporaryFile("explicit.yaml", "per_page: 7\n")
        let fromEnvironment = try writeTemporaryFile("env.yaml", "per_page: 8\n")
        let environment = ["PHOTOSYNC_CONFIG": fromEnvironment]
        #expect(try SettingsResolver(environment: environment).loadConfigFile(flag: explicit)?.settings.perPage == 7)
        #expect(try SettingsResolver(environment: environment).loadConfigFile(flag: nil)?.settings.perPage == 8)
        #expect(throws: PhotoSyncError.configuration("config /missing/env.yaml: no such file")) {
            try SettingsResolver(environment: ["PHOTOSYNC_CONFIG": "/missing/env.yaml"]).loadConfigFile(flag: nil)
        }

        let configHome = try makeTemporaryDirectory()
        #expect(try SettingsResolver(environment: ["XDG_CONFIG_HOME": configHome]).loadConfigFile(flag: nil) == nil)
        try FileManager.default.createDirectory(atPath: configHome + "/photosync", withIntermediateDirectories: true)
        try "retries: 9\n".write(toFile: configHome + "/photosync/config.yaml", atomically: true, encoding: .utf8)
        #expect(try SettingsResolver(environment: ["XDG_CONFIG_HOME": configHome]).loadConfigFile(flag: nil)?.settings.retries == 9)
    }

    /// Issue 14, defect 5: `~` in PHOTOSYNC_DB made a literal `./~/` folder, though `db: ~/...` in the config worked.
    @Test("a leading ~/ is the home folder in --db, PHOTOSYNC_DB, the config, --log-file and PHOTOSYNC_CONFIG")
    func tildeEverywhere() throws {
        let resolver = SettingsResolver(environment: ["HOME": "/home/ana", "PHOTOSYNC_DB": "~/env.sqlite"])
        #expect(try resolver.databasePath(flag: nil, config: nil) == "/home/ana/env.sqlite")
        #expect(try resolver.databasePath(flag: "~/flag.sqlite", config: nil) == "/home/ana/flag.sqlite")
        #expect(try resolver.databasePath(flag: "~other/x.sqlite", config: nil) == "~other/x.sqlite")
        #expect(resolver.logFilePath(flag: "~/logs/fetch.log", config: nil) == "/home/ana/logs/fetch.log")
        let configHome = try makeTemporaryDirectory()
        try "retries: 4\n".write(toFile: configHome + "/c.yaml", atomically: true, encoding: .utf8)
        let fromHome = SettingsResolver(environment: ["HOME": configHome, "PHOTOSYNC_CONFIG": "~/c.yaml"])
        #expect(try fromHome.loadConfigFile(flag: nil)?.settings.retries == 4)
    }
}
