/// quoted's version: in the binaries' --version, the User-Agent and the daemon's status.
public enum QuotedVersion {
    public static let current = "0.1.0"
    /// The release's date, for the manual pages (never the build's: builds must repeat).
    public static let date = "2026-11-30"
}
