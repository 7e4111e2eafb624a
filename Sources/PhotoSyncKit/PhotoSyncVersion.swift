/// The version photosync reports (`--version`, the HTTP User-Agent).
public enum PhotoSyncVersion {
    public static let current = "0.1.0"
}
