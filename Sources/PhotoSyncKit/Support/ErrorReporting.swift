import ArgumentParser

/// Runs a command's body and turns any failure into one stderr line plus a sysexits status.
///
/// `secret` is read only if something fails: its value (the API key) is redacted from the message
/// in case a lower layer echoed it (every line is also redacted with the secrets `Secrets` knows).
/// A closed stdout pipe ends quietly. Errors that are not `PhotoSyncError` are bugs, reported as
/// such with status 70 (EX_SOFTWARE).
func reportingErrors(hiding secret: () -> String? = { nil }, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let exit as ExitCode {
        throw exit
    } catch PhotoSyncError.closedPipe {
        throw ExitCode(PhotoSyncError.closedPipe.exitStatus)
    } catch let error as PhotoSyncError {
        Console.diagnostic(oneLine(error.message, hiding: secret()))
        FatalSignals.noteReported(status: error.exitStatus)
        throw ExitCode(error.exitStatus)
    } catch {
        Console.diagnostic(oneLine("internal error: \(error)", hiding: secret()))
        throw ExitCode(70)
    }
}

/// `message` on one line, with `secret` redacted (see `Secrets.redact`: anywhere when it is long
/// enough, else where it stands as a whole token, so a short key such as "k" leaves "locked" alone).
func oneLine(_ message: String, hiding secret: String?) -> String {
    let line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    return Secrets.redact(line, secrets: secret.map { [$0] } ?? [])
}
