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
    }

    private static let setting = Mutex<Setting?>(nil)

    /// Speaks the user's language from the first message on. `folder` is asked once, at the
    /// first lookup (quotectl random, which prints none, never pays for the locale).
    public static func open(domain: String, folder: @escaping @Sendable () -> String?) {
        setting.withLock { $0 = Setting(domain: domain, folder: folder) }
    }

    /// The domain to look messages up in, or nil when this process speaks English.
    private static let domain: String? = {
        guard let setting = setting.withLock({ $0 }) else { return nil }
        // An unknown locale leaves the process in C: English, and no warning (as coreutils).
        guard setlocale(LC_ALL, "") != nil, let messages = setlocale(LC_MESSAGES, nil) else { return nil }
        let name = String(cString: messages)
        guard name != "C", name != "POSIX", let folder = setting.folder() else { return nil }
        quoted_bind_catalog(setting.domain, folder)
        return setting.domain
    }()

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
