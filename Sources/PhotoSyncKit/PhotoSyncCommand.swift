import ArgumentParser

/// The `photosync` root command.
public struct PhotoSyncCommand: GlobalOptionsCommand {
    public static let configuration = CommandConfiguration(
        commandName: "photosync",
        abstract: "Keep a local SQLite catalog of recent photos from a Flickr-style REST API.",
        discussion: """
            Global options may come before or after the subcommand name. Settings are taken from \
            flags, then PHOTOSYNC_* environment variables, then the config file, then defaults.

            Examples:
              photosync fetch --pages 3
              photosync --db ~/photos.sqlite list --photographer "Ana Lima" --format csv
              photosync delete --photographer "Ana Lima"

            Exit statuses: 0 success; 1 a requested photo or photographer is not in the catalog; \
            64 usage error; 65 bad feed data or a merge conflict; 66 no catalog at the path (or a \
            missing file:// feed); 69 network or API failure; 70 internal error; 71 out of memory \
            (ulimit -v); 74 the catalog or stdout cannot be written (a full disk, no free inode, \
            ulimit -f), or too few file descriptors (ulimit -n); 75 another fetch holds the catalog, \
            the API asked to wait, or --max-time was reached; \
            77 the API refused the key; 78 configuration error; 130/143 interrupted by SIGINT/SIGTERM; \
            141 stdout was closed (| head).
            """,
        version: PhotoSyncVersion.current,
        subcommands: [
            FetchCommand.self, ListCommand.self, ShowCommand.self, PhotographersCommand.self, DeleteCommand.self, RestoreCommand.self, ExcludedCommand.self, ChangesCommand.self, RecheckCommand.self,
            DownloadCommand.self, VerifyCommand.self, StatusCommand.self, MigrateCommand.self, ConfigCommand.self, ServeCommand.self,
        ]
    )

    @OptionGroup public var globals: GlobalOptions

    public init() {}
}
