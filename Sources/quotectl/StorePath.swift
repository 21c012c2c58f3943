import Glibc
import QuoteConfig
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
        // No getpwuid: in a fully static binary it would need glibc's NSS modules at run time.
        let uid = String(getuid())
        if let passwd = try? FileReader.read("/etc/passwd", limit: 16 << 20) {
            for line in String(decoding: passwd, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: ":", omittingEmptySubsequences: false)
                if fields.count >= 6, fields[2] == uid { return String(fields[5]) }
            }
        }
        return "/"
    }
}
