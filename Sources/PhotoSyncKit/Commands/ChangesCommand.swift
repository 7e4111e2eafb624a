import ArgumentParser
import Foundation

/// `photosync changes`: what changed in the catalog, oldest first, from its persistent history.
struct ChangesCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "Show what changed in the catalog: photos and photographers inserted, updated, deleted, excluded, restored.",
        discussion: """
            Without --since, the last fetch run's changes. --since takes a token a previous \
            'changes' printed (what came after it), run:N (after fetch run N; 'status' shows run \
            ids) or a time. With --format json the output is {"changes": [...], "token": "..."}; \
            with jsonl the last line is {"token": "..."}: pass that token next time.

            --follow keeps running and prints new changes as they commit (text or jsonl): \
            PostgreSQL tells it at each commit (LISTEN/NOTIFY), a SQLite file is looked at once a \
            second; SIGINT or SIGTERM ends it with status 0 after the line being written, and the \
            token line.

            Examples:
              photosync changes
              photosync changes --since run:41 --format jsonl
              photosync changes --since "$(cat last-token)" --format json
              photosync changes --follow --format jsonl
            """
    )

    @OptionGroup var globals: GlobalOptions

    @Option(help: "Start after a token, run:N, or a time (ISO 8601, YYYY-MM-DD, 24h, 7d).")
    var since: String?

    @Option(name: .customLong("run"), help: "Only the changes of fetch run N.")
    var runID: Int?

    @Option(help: "Only changes about this photographer and their photos.")
    var photographer: String?

    @Option(name: [.customShort("f"), .long], help: "Output format.")
    var format: ChangesFormat = .text

    @Flag(help: "Keep running: print new changes as they commit, until SIGINT or SIGTERM.")
    var follow = false

    /// How often `--follow` looks at a SQLite file (tests make it huge: PostgreSQL must not poll).
    @Option(name: .customLong("follow-poll-seconds"), help: ArgumentHelp(visibility: .private))
    var followPollSeconds = 1

    func validate() throws {
        if follow && format == .json { throw ValidationError("--follow prints lines: use --format text or jsonl") }
        if followPollSeconds < 1 { throw ValidationError("--follow-poll-seconds must be at least 1") }
    }

    func run() throws {
        try reportingErrors {
            let start = try Self.start(since)
            let context = try CommandContext(globals, command: Self.name, logging: .readsCatalog)
            let catalog = try context.openCatalog(forReading: true)
            let (changes, token) = try catalog.changes(since: start, run: runID, photographer: photographer)
            guard follow else { return try Console.write(try ChangesOutput.render(changes, token: token, as: format)) }
            try Console.write(try ChangesOutput.lines(changes, as: format))
            let last = try InterruptionWatch.listeningForSignals { watch in try following(catalog, after: token, until: watch) }
            try Console.write(try ChangesOutput.tokenLine(last, as: format))
        }
    }

    /// Prints the changes committed after `token` as they come (read only when the catalog's
    /// waiter says something committed), until a signal; returns the last token printed through.
    private func following(_ catalog: Catalog, after token: String, until watch: InterruptionWatch) throws -> String {
        var token = token
        let waiter = try catalog.changesWaiter(pollInterval: .seconds(followPollSeconds))
        while watch.signal == nil {
            guard try catalog.waitForChanges(waiter, after: token, until: { watch.signal != nil }), watch.signal == nil else { continue }
            let (changes, next) = try catalog.changes(since: .token(token), run: runID, photographer: photographer)
            try Console.write(try ChangesOutput.lines(changes, as: format))
            token = next
        }
        return token
    }

    static func start(_ since: String?) throws -> Catalog.ChangesStart {
        guard let since else { return .lastRun }
        if since.allSatisfy(\.isNumber), !since.isEmpty { return .token(since) }
        if since.hasPrefix("run:") {
            guard let run = Int(since.dropFirst(4)), run > 0 else { throw PhotoSyncError.usage("--since \(since): run:N needs a run id") }
            return .run(run)
        }
        guard let bound = TimeBound(argument: since) else {
            throw PhotoSyncError.usage("--since \(since): not a token, run:N or a time (ISO 8601, YYYY-MM-DD, 24h, 7d)")
        }
        return .time(bound.first)
    }
}

enum ChangesFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json, jsonl
}
