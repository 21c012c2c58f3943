import Glibc
import QuoteStore

/// Where the store is: `--db`, else $QUOTED_DB, else the system service's store
/// when it exists and this user can read it, else the user's own under XDG_DATA_HOME.
enum StorePath {
    static let system = "/var/lib/quoted/quotes.db"

    static func resolve(option: String?) -> String {
        if let option { return option }
        if let environment = Path.environment("QUOTED_DB") { return environment }
        if access(system, R_OK) == 0 { return system }
        return Path.join(dataHome(), "quoted/quotes.db")
    }

    static func dataHome() -> String {
        if let xdg = Path.environment("XDG_DATA_HOME"), xdg.hasPrefix("/") { return xdg }
        return Path.join(home(), ".local/share")
    }

    static func home() -> String {
        if let home = Path.environment("HOME") { return home }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir {
            return String(cString: directory)
        }
        return "/"
    }
}
