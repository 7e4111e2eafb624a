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
            """,
        version: PhotoSyncVersion.current,
        subcommands: [
            FetchCommand.self, ListCommand.self, ShowCommand.self, PhotographersCommand.self, DeleteCommand.self, RestoreCommand.self,
            StatusCommand.self, ConfigCommand.self,
        ]
    )

    @OptionGroup public var globals: GlobalOptions

    public init() {}
}
