import QuoteBase
import QuoteSystem

/// The first executable `name` in PATH's absolute folders (a relative entry would run whatever
/// the current folder holds): the programs quotectl starts, `quoted` and `notify-send`.
func programInPath(_ name: String) -> String? {
    let folders = (Environment.variable("PATH") ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
    for folder in folders where folder.hasPrefix("/") {
        let candidate = Path.join(String(folder), name)
        if (try? FileSystem.status(candidate))?.kind == .regular, FileSystem.isAccessible(candidate, for: .execute) { return candidate }
    }
    return nil
}
