import ArgumentParser
import Foundation

/// `photosync serve`: a read-only web gallery over the catalog.
struct ServeCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Show the catalog in a web browser (read-only).",
        discussion: """
            Pages: / (photographers), /photographers/NAME, /photos/ID, /search?q=, /runs, and \
            /api/photos, /api/photographers, /api/status (the JSON of list, photographers and \
            status). /files/ serves the downloaded images. It binds 127.0.0.1 unless told \
            otherwise; on any other address it asks for a token (--token, PHOTOSYNC_SERVE_TOKEN, \
            or a random one it prints), unless --no-token. Ctrl-C stops it.

            Examples:
              photosync serve
              photosync serve --port 9000 --files ~/photos
            """
    )

    @OptionGroup var globals: GlobalOptions

    @Option(help: "The address to listen on (an IP address; 0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(help: "The port (0: any free port, printed).")
    var port: UInt16 = 8080

    @Option(help: "The token a non-loopback address asks for (env PHOTOSYNC_SERVE_TOKEN; default: a random one, printed).")
    var token: String?

    @Flag(help: "Let anyone who can reach the address in without a token.")
    var noToken = false

    @Option(help: "Seconds a client may take to send a request or read a reply, and may stay idle.")
    var timeout: Double = 30

    @Option(help: "Connections open at once; more get 503.")
    var maxConnections = 64

    func validate() throws {
        if timeout <= 0 { throw ValidationError("--timeout must be greater than 0") }
        if maxConnections < 1 { throw ValidationError("--max-connections must be at least 1") }
        if token != nil && noToken { throw ValidationError("--token and --no-token contradict each other") }
        if token?.isEmpty == true { throw ValidationError("--token must not be empty") }
    }

    func run() throws {
        try reportingErrors {
            let context = try CommandContext(globals, command: Self.name, logging: .readsCatalog)
            let token = AccessToken(value: try chosenToken(context))
            let settings = try context.resolver.environmentSettings().overriding(context.config?.settings ?? SettingsLayer())
            guard try context.catalogExists() else { throw PhotoSyncError.noInput("no catalog at \(context.location.display) (run photosync fetch first)") }
            let gallery = Gallery(
                catalog: try Catalog(context.location, onlyReading: true),
                filesFolder: context.resolver.filesFolder(flag: globals.files, config: context.config, databasePath: context.databasePath),
                remoteImages: settings.serveRemoteImages ?? false, catalogName: context.location.display)
            let socket = try HTTPListener.bind(host: host, port: port)
            SearchIndexBuilder(gallery: gallery, file: context.resolver.cacheFolder().map { gallery.catalog.searchIndexFile(in: $0) }).start()
            try ServeSession(socket: socket, host: host, token: token, limits: ServeLimits(timeout: timeout, maxConnections: maxConnections))
                .run(gallery)
        }
    }

    /// The token a request must carry: none on loopback (unless given), the given one, or a random one.
    private func chosenToken(_ context: CommandContext) throws -> String? {
        let given = token ?? ProcessInfo.processInfo.environment["PHOTOSYNC_SERVE_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if let given { Secrets.register(given) }
        if noToken || Self.isLoopback(host) { return noToken ? nil : given }
        return given ?? AccessToken.random()
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "::1" || host.hasPrefix("127.")
    }
}
