import CSystem
import Glibc
import Synchronization

/// glibc's gettext for one text domain: the user's locale (setlocale, with gettext's own order
/// LANGUAGE, LC_ALL, LC_MESSAGES, LANG), the folder of the domain's catalogs (bindtextdomain)
/// and the lookup. A program that never opens it (the daemon, whose lines go to the journal)
/// speaks English; so does one whose locale is C, POSIX or not installed, without asking
/// gettext at all, so its English is today's byte for byte.
public enum MessageCatalog {
    private struct Setting: Sendable {
        let domain: String
        let folder: @Sendable () -> String?
        /// $LANGUAGE, gettext's list of languages (read by the caller's environment layer).
        let languages: @Sendable () -> String?
    }

    private static let setting = Mutex<Setting?>(nil)

    /// Speaks the user's language from the first message on. `folder` and `languages` are
    /// asked once, at the first lookup (quotectl random, which prints none, never pays for the
    /// locale).
    public static func open(domain: String, folder: @escaping @Sendable () -> String?,
                            languages: @escaping @Sendable () -> String?) {
        setting.withLock { $0 = Setting(domain: domain, folder: folder, languages: languages) }
    }

    /// The domain to look messages up in, or nil when this process speaks English.
    private static let domain: String? = {
        guard let setting = setting.withLock({ $0 }) else { return nil }
        // An unknown locale leaves the process in C: English, and no warning (as coreutils).
        guard setlocale(LC_ALL, "") != nil, let messages = setlocale(LC_MESSAGES, nil) else { return nil }
        let name = String(cString: messages)
        guard name != "C", name != "POSIX", let folder = setting.folder() else { return nil }
        if let refusal = outsideTheFolder([name] + (setting.languages() ?? "").split(separator: ":").map(String.init), folder: folder)
            ?? refusal(of: folder, domain: setting.domain) {
            warn("ignoring \(refusal); messages are in English")
            // glibc's own words (strerror) in English too: one run never mixes the two languages.
            _ = setlocale(LC_MESSAGES, "C")
            return nil
        }
        quoted_bind_catalog(setting.domain, folder)
        return setting.domain
    }()

    /// The first catalog of `domain` under `folder` that gettext could open and that is unsound
    /// (named, with why), or nil when all are sound. Every language's is checked, not just the
    /// locale's: gettext's own choice (LANGUAGE's list, locale aliases, codeset variants) may
    /// open any of them. A folder that cannot be listed is refused, as it cannot be checked.
    static func refusal(of folder: String, domain: String) -> String? {
        let languages: [String]
        do {
            languages = try FileSystem.contentsOfDirectory(folder)
        } catch {
            return error.errno == .noSuchFile ? nil : "the catalogs in \(folder) (they cannot be listed to be checked: \(error.errno))"
        }
        for language in languages.sorted() {
            let path = "\(folder)/\(language)/LC_MESSAGES/\(domain).mo"
            guard FileSystem.exists(path) else { continue }
            guard let bytes = read(path) else { return "the catalog \(path) (not a regular file this program can read, or over \(CatalogFile.sizeLimit) bytes)" }
            if let problem = CatalogFile.refusal(of: bytes) { return "the damaged catalog \(path) (\(problem))" }
        }
        return nil
    }

    /// gettext takes a locale name or a LANGUAGE entry holding a '/' as a path of its own, to a
    /// catalog outside `folder` that nobody checked: such a setting is refused.
    static func outsideTheFolder(_ names: [String], folder: String) -> String? {
        guard let named = names.first(where: { $0.contains("/") }) else { return nil }
        return "the catalog '\(named)' names (a path outside \(folder), which is not checked)"
    }

    /// A regular file's bytes, at most `CatalogFile.sizeLimit` (a FIFO or device is refused
    /// without waiting: `openRegularFile`).
    private static func read(_ path: String) -> [UInt8]? {
        var status = stat()
        guard let file = try? FileDescriptor.openRegularFile(path, status: &status),
              status.st_size >= 0, status.st_size <= CatalogFile.sizeLimit else { return nil }
        // One byte more than stat says, so a file that grew meanwhile is seen past the cap.
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var filled = 0
        while filled < bytes.count {
            guard let got = try? file.io.read(into: &bytes, from: filled) else { return nil }
            if got == 0 { break }
            filled += got
        }
        guard filled < bytes.count else { return nil }
        return Array(bytes[0..<filled])
    }

    /// In English on purpose: the catalog is what failed.
    private static func warn(_ text: String) {
        let program = CommandLine.arguments.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "quoted"
        try? Descriptor.standardError.writeAll("\(program): warning: \(text)\n")
    }

    /// Whether messages are looked up at all (false: the English as written).
    public static var isActive: Bool { domain != nil }

    /// The catalog's translation of `message`, or nil when it has none.
    public static func translation(of message: String) -> String? {
        guard let domain else { return nil }
        return message.withCString { key in
            guard let found = quoted_translate(domain, key), found != key else { return nil }
            return String(cString: found)
        }
    }

    /// The translation of a message with a count (ngettext: the catalog's plural rule picks
    /// the form), or nil when it has none.
    public static func translation(singular: String, plural: String, count: Int) -> String? {
        guard let domain else { return nil }
        // ngettext takes an unsigned long: a negative count is shown by its magnitude's rule.
        let magnitude = UInt(count.magnitude)
        return singular.withCString { one in
            plural.withCString { many in
                guard let found = quoted_translate_plural(domain, one, many, magnitude), found != one, found != many
                else { return nil }
                return String(cString: found)
            }
        }
    }
}
