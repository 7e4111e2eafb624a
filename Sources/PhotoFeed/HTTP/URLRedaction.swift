/// Keeps credentials out of every error message and log line.
///
/// Every URL that leaves the HTTP layer as text passes through `redact`, so a
/// pasted error report or a CI log never leaks the credential.
public enum URLRedaction {
    /// Replaces, anywhere in `text`:
    /// - the value of every credential parameter (any letter case): `api_key`, `key`, `token`,
    ///   `secret`, `signature`, `auth`, `sig`, `password`, `sslpassword`, and names ending in `_`
    ///   plus one of them (`oauth_token`, `api_sig`), with `REDACTED`;
    /// - the password of a URL's user information (`postgresql://user:pass@host`) with `***`,
    ///   keeping the user name; user information without a password (`https://token@host`) is
    ///   taken for a token and replaced whole, except a PostgreSQL URL's, which is a role name.
    public static func redact(_ text: String) -> String {
        text.replacing(credentialParameter) { match in "\(match.1)\(match.2)=REDACTED" }
            .replacing(userInformation) { match in
                if match.3 != nil { return "\(match.1)\(match.2):***@" }
                let isPostgres = match.1.lowercased().hasPrefix("postgres")
                return isPostgres ? "\(match.1)\(match.2)@" : "\(match.1)REDACTED@"
            }
    }

    /// `?`, `&` or `;` (or the start, or a space) before a credential name, then `=` and its value.
    nonisolated(unsafe) private static let credentialParameter =
        /(?i)(^|[?&;\s])((?:[a-z0-9]+_)*(?:key|token|secret|signature|auth|sig|password|sslpassword))=[^&#\s]*/

    /// A scheme, then the user information up to an `@` before the host: the user, and the
    /// password after its first `:`.
    nonisolated(unsafe) private static let userInformation = /(?i)([a-z][a-z0-9+.\-]*:\/\/)([^\/\s@?#:]*)(?::([^\/\s@?#]*))?@/
}
