import ArgumentParser
import PhotoSyncKit

// Parse first so logging can be set up once, from --verbose, before any command runs.
do {
    var command = try PhotoSyncCommand.parseAsRoot()
    LoggingBootstrap.bootstrap(for: command)
    try command.run()
} catch {
    PhotoSyncCommand.exit(withError: error)
}
