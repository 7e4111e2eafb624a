import ArgumentParser

/// Runs a command's body and turns any failure into one stderr line plus a sysexits status.
///
/// `secret` is read only if something fails: its value (the API key) is blanked out of the message
/// in case a lower layer echoed it, say in a request URL. Errors that are not `PhotoSyncError`
/// are bugs, reported as such with status 70 (EX_SOFTWARE).
func reportingErrors(hiding secret: () -> String? = { nil }, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let exit as ExitCode {
        throw exit
    } catch let error as PhotoSyncError {
        Console.diagnostic(oneLine(error.message, hiding: secret()))
        throw ExitCode(error.exitStatus)
    } catch {
        Console.diagnostic(oneLine("internal error: \(error)", hiding: secret()))
        throw ExitCode(70)
    }
}

/// `message` on one line, with `secret` blanked out wherever it stands as a whole token (a short
/// key such as "k" must not blank the inside of "locked").
func oneLine(_ message: String, hiding secret: String?) -> String {
    let line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    guard let secret, !secret.isEmpty else { return line }
    var result = ""
    var rest = line[...]
    while let range = rest.firstRange(of: secret) {
        let before = range.lowerBound > rest.startIndex ? rest[rest.index(before: range.lowerBound)] : nil
        let after = range.upperBound < rest.endIndex ? rest[range.upperBound] : nil
        let isToken = !(before.map(isKeyCharacter) ?? false) && !(after.map(isKeyCharacter) ?? false)
        result += rest[..<range.lowerBound] + (isToken ? "[redacted]" : secret)
        rest = rest[range.upperBound...]
    }
    return result + rest
}

private func isKeyCharacter(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || character == "_" || character == "-"
}
