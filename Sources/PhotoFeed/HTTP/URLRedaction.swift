/// Keeps the API key out of every error message and log line.
///
/// Every URL that leaves the HTTP layer as text passes through `redact`, so a
/// pasted error report or a CI log never leaks the credential.
public enum URLRedaction {
    /// Replaces the value of every `api_key=` parameter (any letter case) with `REDACTED`.
    public static func redact(_ url: String) -> String {
        url.replacing(/(?i)(api_key=)[^&#\s]*/) { match in "\(match.1)REDACTED" }
    }
}
