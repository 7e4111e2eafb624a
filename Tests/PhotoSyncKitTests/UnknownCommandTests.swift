import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

@Suite("unknown subcommands", .onTestThreads)
struct UnknownCommandTests {
    @Test("the first word that is not an option or an option's value is the command")
    func positionalWords() {
        #expect(UnknownCommand.positionalWords(["--db", "x", "--verbose", "lsit", "--limit", "1"]) == ["lsit"])
        #expect(UnknownCommand.positionalWords(["help", "fecth", "more"]) == ["help", "fecth"])
        #expect(UnknownCommand.positionalWords(["--generate-completion-script", "bash"]) == [])
        #expect(UnknownCommand.positionalWords(["--", "fetch"]) == [])
    }

    @Test("known commands, help and options pass; others are usage errors naming the closest")
    func check() throws {
        for arguments in [["fetch"], ["help"], ["help", "list"], ["--version"], [], ["--db=x", "status"]] {
            try UnknownCommand.check(arguments, root: PhotoSyncCommand.self)
        }
        #expect(throws: PhotoSyncError.usage("unknown command 'fecth'; did you mean 'fetch'? (see 'photosync --help')")) {
            try UnknownCommand.check(["fecth"], root: PhotoSyncCommand.self)
        }
        #expect(throws: PhotoSyncError.usage("unknown command 'del'; did you mean 'delete'? (see 'photosync --help')")) {
            try UnknownCommand.check(["help", "del"], root: PhotoSyncCommand.self)
        }
    }
}
