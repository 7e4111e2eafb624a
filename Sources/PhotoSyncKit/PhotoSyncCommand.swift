import ArgumentParser

/// The `photosync` root command.
public struct PhotoSyncCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "photosync",
        abstract: "Keep a local SQLite catalog of recent photos from a Flickr-style REST API."
    )
    public init() {}
}
