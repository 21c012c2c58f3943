import Glibc

/// Writing to a file descriptor without Foundation.
public enum Descriptor {
    /// Writes all of `text` (retrying short writes and EINTR); false when the descriptor
    /// refused (a closed pipe, a full disk).
    @discardableResult
    public static func write(_ descriptor: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return false }
            written += count
        }
        return true
    }
}
