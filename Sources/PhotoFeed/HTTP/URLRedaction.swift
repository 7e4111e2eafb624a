/// Keeps credentials out of every error message and log line.
///
/// Every URL that leaves the HTTP layer as text passes through `redact`, so a
/// pasted error report or a CI log never leaks the credential.
public enum URLRedaction {
    /// Replaces, anywhere in `text`:
    /// - the value of every credential parameter (any letter case): `api_key`, `key`, `token`,
    ///   `secret`, `signature`, `auth`, `sig`, `password`, `sslpassword`, and names ending in `_`
    ///   plus one of them (`oauth_token`, `api_sig`), with `REDACTED`;
    /// - the user information of a URL (`http://user:pass@host`, `https://token@host`) with
    ///   `REDACTED`, except a PostgreSQL URL's user, a role name, which stays: only its password
    ///   becomes `***` (`postgresql://photosync:***@host`).
    public static func redact(_ text: String) -> String {
        text.replacing(credentialParameter) { match in "\(match.1)\(match.2)=REDACTED" }
            .replacing(userInformation) { match in
                guard match.1.lowercased().hasPrefix("postgres") else { return "\(match.1)REDACTED@" }
                return match.3 == nil ? "\(match.1)\(match.2)@" : "\(match.1)\(match.2):***@"
            }
    }

    /// `?`, `&` or `;` (or the start, or a space) before a credential name, then `=` and its value.
    nonisolated(unsafe) private static let credentialParameter =
        /(?i)(^|[?&;\s])((?:[a-z0-9]+_)*(?:key|token|secret|signature|auth|sig|password|sslpassword))=[^&#\s]*/

    /// A scheme, then the user information up to an `@` before the host: the user, and the
    /// password after its first `:`.
    nonisolated(unsafe) private static let userInformation = /(?i)([a-z][a-z0-9+.\-]*:\/\/)([^\/\s@?#:]*)(?::([^\/\s@?#]*))?@/
}
