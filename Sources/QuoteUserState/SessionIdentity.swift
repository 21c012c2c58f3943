import QuoteBase

/// Which boot and which login session this is, for `--once-per boot|session`: the kernel's boot
/// id, and XDG_SESSION_ID (logind) or else the audit session of /proc/self/sessionid. Each read
/// with a small cap and kept only when it looks like an id; nil when unknown. Read only where a
/// period asks (`current`): a plain draw records what the environment says (`fromEnvironment`).
public struct SessionIdentity: Equatable, Sendable {
    public let boot: String?
    public let session: String?

    public init(boot: String?, session: String?) {
        self.boot = boot
        self.session = session
    }

    public static func current() -> SessionIdentity {
        let audit = idFile("/proc/self/sessionid")
        // 4294967295 is the audit subsystem's "no session" (a process not started by a login).
        return SessionIdentity(boot: idFile("/proc/sys/kernel/random/boot_id"),
                               session: environmentSession() ?? (audit == "4294967295" ? nil : audit))
    }

    /// What is known with no file read: the login session XDG_SESSION_ID names, no boot. What a
    /// quote shown records — nothing compares it (`like` and `hide` take the last quote shown in
    /// any session; `--once-per` compares greetings, which record `current()`), so no draw pays
    /// for /proc's two files.
    public static func fromEnvironment() -> SessionIdentity {
        SessionIdentity(boot: nil, session: environmentSession())
    }

    private static func environmentSession() -> String? {
        Environment.variable("XDG_SESSION_ID").flatMap(idText)
    }

    private static func idFile(_ path: String) -> String? {
        guard let bytes = try? FileReader.read(path, limit: 128) else { return nil }
        return idText(String(decoding: bytes, as: UTF8.self))
    }

    /// An id: up to 64 letters, digits, '-', '_' or '.', around which blanks are dropped.
    static func idText(_ text: String) -> String? {
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= 64,
              trimmed.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) })
        else { return nil }
        return trimmed
    }
}
