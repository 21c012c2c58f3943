import Foundation

/// What this process holds open, as /proc/self/fd shows it.
public enum OpenFiles {
    /// How many of this process's descriptors name the file at `path` (other tests' descriptors
    /// come and go meanwhile; a path of the test's own is counted alone).
    public static func descriptors(of path: String) -> Int {
        let folder = "/proc/self/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)) == path }.count
    }
}
