/// Which commands write to the log file.
///
/// A cron log is a record of what changed the catalog, as `rclone --log-file` users expect: a
/// typo'd `show 999` or `list --db` at the terminal must not put an ERROR into it. So the log file
/// from `log_file` or `PHOTOSYNC_LOG_FILE` is opened only by the commands that change the catalog;
/// a reading command logs only when `--log-file` is given on its own command line, and `config`,
/// which reports the setting, never opens (or creates) the file.
enum LogFileUse: Sendable {
    /// `fetch`, `delete`, `restore`, `migrate`: the configured log file, or `--log-file`.
    case changesCatalog
    /// `list`, `show`, `photographers`, `status`: only an explicit `--log-file`.
    case readsCatalog
    /// `config`: never.
    case never

    /// The log file to open, given the flag and the path the settings resolve to.
    func path(flag: String?, resolved: String?) -> String? {
        switch self {
        case .changesCatalog: resolved
        case .readsCatalog: flag == nil ? nil : resolved
        case .never: nil
        }
    }
}
