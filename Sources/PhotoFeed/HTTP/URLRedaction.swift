/// Keeps credentials out of every error message and log line.
///
/// Every URL that leaves the HTTP layer as text passes through `redact`, so a
/// pasted error report or a CI log never leaks the credential.
public enum URLRedaction {
    /// Replaces, anywhere in `text`:
    /// - the value of every credential parameter (any letter case): `api_key`, `key`, `token`,
    ///   `secret`, `signature`, `auth`, `sig`, and names ending in `_` plus one of them
    ///   (`oauth_token`, `api_sig`), with `REDACTED`;
    /// - the user information of a URL (`http://user:pass@host`) with `REDACTED`.
    public static func redact(_ text: String) -> String {
        text.replacing(credentialParameter) { match in "\(match.1)\(match.2)=REDACTED" }
            .replacing(userInformation) { match in "\(match.1)REDACTED@" }
    }

    /// `?`, `&` or `;` (or the start, or a space) before a credential name, then `=` and its value.
    nonisolated(unsafe) private static let credentialParameter =
        /(?i)(^|[?&;\s])((?:[a-z0-9]+_)*(?:key|token|secret|signature|auth|sig))=[^&#\s]*/

    /// A scheme, then everything up to an `@` before the host.
    nonisolated(unsafe) private static let userInformation = /(?i)([a-z][a-z0-9+.\-]*:\/\/)[^\/\s@?#]+@/
}
