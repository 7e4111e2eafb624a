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

/// `message` on one line, with `secret` blanked out.
func oneLine(_ message: String, hiding secret: String?) -> String {
    var line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    if let secret, !secret.isEmpty {
        line = line.replacing(secret, with: "[redacted]")
    }
    return line
}
