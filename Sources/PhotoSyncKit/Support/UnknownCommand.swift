import ArgumentParser

/// A mistyped subcommand, caught before argument-parser sees it.
///
/// argument-parser reports `photosync fecth` as `Unexpected argument 'fecth'`, with no hint, and
/// `photosync help fecth` prints the top-level help and exits 0, so a script never learns of the
/// typo. Both become a usage error (64) naming the closest subcommand, as `git` and `cargo` do.
enum UnknownCommand {
    /// Global and root options whose value is the next argument (not a subcommand name).
    static let optionsTakingValues: Set = ["--db", "--config", "--log-file", "--generate-completion-script"]

    /// Throws `.usage` when the first word that is not an option names no subcommand, or when
    /// `help` is followed by one that names none.
    static func check(_ arguments: [String], root: any ParsableCommand.Type) throws(PhotoSyncError) {
        let names = root.configuration.subcommands.compactMap { $0.configuration.commandName }
        let words = positionalWords(arguments)
        guard let first = words.first else { return }
        if first == "help" {
            guard words.count > 1, !names.contains(words[1]) else { return }
            throw .usage(message(for: words[1], among: names))
        }
        guard !names.contains(first) else { return }
        throw .usage(message(for: first, among: names))
    }

    /// `unknown command 'fecth'; did you mean 'fetch'? (see 'photosync --help')`.
    static func message(for word: String, among names: [String]) -> String {
        let hint = closest(to: word, among: names).map { "; did you mean '\($0)'?" } ?? ""
        return "unknown command '\(word)'\(hint) (see 'photosync --help')"
    }

    /// The subcommand `word` most likely meant: one it starts (`del`), else the nearest within
    /// two edits (`fecth`, `lst`).
    static func closest(to word: String, among names: [String]) -> String? {
        let lowered = word.lowercased()
        if !lowered.isEmpty, let prefixed = names.first(where: { $0.hasPrefix(lowered) }) { return prefixed }
        let scored = names.map { ($0, editDistance(lowered, $0)) }.filter { $0.1 <= 2 }
        return scored.min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }

    /// The arguments before the first subcommand that are not options or option values, up to `--`.
    static func positionalWords(_ arguments: [String]) -> [String] {
        var words: [String] = []
        var index = 0
        while index < arguments.count, words.count < 2 {
            let argument = arguments[index]
            if argument == "--" { break }
            if argument.hasPrefix("-") {
                index += optionsTakingValues.contains(argument) ? 2 : 1
                continue
            }
            words.append(argument)
            // Only `help` takes a command name after it.
            if argument != "help" { break }
            index += 1
        }
        return words
    }
}
