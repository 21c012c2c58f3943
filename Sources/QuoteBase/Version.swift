/// quoted's version: in the binaries' --version, the User-Agent and the daemon's status.
public enum QuotedVersion {
    public static let current = "0.1.0"
}
