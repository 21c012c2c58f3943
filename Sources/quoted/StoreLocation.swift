import Foundation
import QuoteConfig

/// Where quoted keeps its store: `--db`, $QUOTED_DB, `[store] path`, the system
/// service's $STATE_DIRECTORY (systemd's StateDirectory=), else the user's XDG data folder.
enum StoreLocation {
    static func resolve(option: String?, configuration: Configuration) -> String {
        let environment = ProcessInfo.processInfo.environment
        if let option { return option }
        if let path = environment["QUOTED_DB"], !path.isEmpty { return path }
        if let path = configuration.storePath { return path }
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !state.isEmpty {
            return String(state) + "/quotes.db"
        }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/quoted/quotes.db"
    }
}

/// One line on stderr, unbuffered.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Lines on stdout, flushed at once (progress must not wait for a full buffer).
func printOut(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
