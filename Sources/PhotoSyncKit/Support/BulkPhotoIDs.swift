import ArgumentParser

/// Keeps long lists of photo ids away from argument-parser.
///
/// argument-parser stores each value of an array `@Argument` by copying the values parsed so far
/// and the set of their input positions (`ParsedValues.update`, swift-argument-parser 1.8): n ids
/// cost O(n²). `delete` with 24,000 ids spent 94% of its 35 s there (perf, issue 24), and the
/// delete itself a fraction of a second.
///
/// So a long run of id-shaped words is cut short before parsing: the first word of the run stays
/// (it may be the value of the option before it), the others are set aside and added to the
/// command's ids after parsing. They cannot be anything but positional values: no option of
/// `delete` or `restore` takes more than one value. Whenever the shortened parse is not exactly
/// a `delete` or `restore` with ids, or its validation fails, the whole command line is parsed
/// the ordinary way, so help, errors and every other command behave exactly as before.
enum BulkPhotoIDs {
    /// Runs shorter than this are parsed as they are: the quadratic cost is negligible there.
    static let threshold = 64

    /// `arguments` without the tail of every long run of id-shaped words, and those tails.
    static func split(_ arguments: [String]) -> (kept: [String], setAside: [String]) {
        var kept: [String] = [], setAside: [String] = []
        kept.reserveCapacity(arguments.count)
        var start = 0
        while start < arguments.count {
            var end = start
            while end < arguments.count, isIDShaped(arguments[end]) { end += 1 }
            if end - start >= threshold {
                kept.append(arguments[start])
                setAside.append(contentsOf: arguments[(start + 1)..<end])
            } else {
                kept.append(contentsOf: arguments[start..<max(end, start + 1)])
            }
            start = max(end, start + 1)
        }
        return (kept, setAside)
    }

    /// The command `arguments` parse to, with long id lists added after parsing; nil when the
    /// ordinary parse must decide (no long run, another command, or a validation error to report).
    static func parse(_ arguments: [String]) -> (any ParsableCommand)? {
        // Every other command line costs nothing here (not even the subcommand names).
        guard arguments.count > threshold else { return nil }
        let (kept, setAside) = split(arguments)
        guard !setAside.isEmpty, let command = try? PhotoSyncCommand.parseAsRoot(kept) else { return nil }
        switch command {
        case var delete as DeleteCommand:
            delete.photoIDs += setAside
            return (try? delete.validate()).map { delete }
        case var restore as RestoreCommand:
            restore.photoIDs += setAside
            return (try? restore.validate()).map { restore }
        default:
            return nil
        }
    }

    /// A word that can only be a photo id or an option's value: ASCII letters and digits, not a
    /// subcommand name (which must stay where argument-parser sees it).
    private static func isIDShaped(_ word: String) -> Bool {
        !word.isEmpty && word.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
            && !subcommandNames.contains(word)
    }

    private static let subcommandNames: Set<String> = Set(
        PhotoSyncCommand.configuration.subcommands.map { $0._commandName } + ["help"])
}
