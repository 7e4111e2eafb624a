import ArgumentParser

/// Options every command accepts, before or after the subcommand name.
///
/// The root command and each subcommand declare this group with `@OptionGroup`; argument-parser
/// hands the values given before the subcommand name to the subcommand's copy as well.
public struct GlobalOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The catalog: a file, or a postgres:// URL for one shared by many hosts (env PHOTOSYNC_DB).",
            discussion: "Default: $XDG_DATA_HOME/photosync/catalog.sqlite, else ~/.local/share/photosync/catalog.sqlite.",
            valueName: "path|url"),
        completion: .file())
    public var db: String?

    @Option(
        help: ArgumentHelp(
            "The YAML config file (env PHOTOSYNC_CONFIG).",
            discussion: "Default: $XDG_CONFIG_HOME/photosync/config.yaml when it exists.",
            valueName: "path"),
        completion: .file())
    public var config: String?

    @Option(
        help: ArgumentHelp(
            "Append timestamped log lines for this run to this file (env PHOTOSYNC_LOG_FILE, config log_file).",
            discussion: "Creates the file (mode 0600) and its folder (0700). Lines never hold the API key.",
            valueName: "path"),
        completion: .file())
    public var logFile: String?

    @Option(
        help: ArgumentHelp(
            "The folder downloaded images are kept in (env PHOTOSYNC_FILES, config files_dir).",
            discussion: "Default: files/ beside a SQLite catalog; required for a postgres:// catalog (files are per host).",
            valueName: "dir"),
        completion: .directory)
    public var files: String?

    @Flag(name: [.customShort("v"), .long], help: "Log debug details to stderr.")
    public var verbose = false

    @Flag(name: [.customShort("q"), .long], help: "Print only requested data, errors and warnings that data may be missing (a gap).")
    public var quiet = false

    public init() {}

    public func validate() throws {
        if verbose && quiet {
            throw ValidationError("--verbose and --quiet cannot be used together.")
        }
    }
}

/// A command that carries the global options, so the executable can read `--verbose` before running it.
public protocol GlobalOptionsCommand: ParsableCommand {
    var globals: GlobalOptions { get }
}

extension GlobalOptionsCommand {
    /// The name the user typed (`fetch`), for log lines.
    static var name: String { configuration.commandName ?? "photosync" }
}
