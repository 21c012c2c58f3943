import Foundation
import TestSupport
import Testing

/// What ARCHITECTURE.md gives one home outside QuoteSystem's system layer, or inside it one file:
/// the wall clock, the environment, the locale and its catalogs, the local time zone's calendar,
/// and the only place the compiler's data-race checks are switched off.
@Suite(.computing) struct OneHomeTests {
    /// Each rule: what it finds, its pattern, and the only files where that may appear.
    static let rules: [(name: String, pattern: String, homes: Set<String>)] = [
        ("the wall clock's time(2) (UnixTime.now)", #"(?<![A-Za-z0-9_.])time\((nil|&)"#, ["QuoteBase/Time/UnixTime.swift"]),
        ("getenv or setenv (Environment; quotectl's pager set-up sets LESS)",
         #"(?<![A-Za-z0-9_.])(getenv|secure_getenv|setenv|unsetenv|putenv|clearenv)\("#,
         ["QuoteBase/Environment.swift", "QuotectlCommands/Terminal.swift"]),
        // A thread's own locale for one call (newlocale, uselocale: ExtendedRegex's C.UTF-8) is not the process's.
        ("setlocale or gettext (MessageCatalog, which asks only once a message is shown)",
         #"(?<![A-Za-z0-9_.])(setlocale|bindtextdomain|bind_textdomain_codeset|textdomain|gettext|dgettext|dcgettext|ngettext|dngettext|dcngettext|quoted_bind_catalog|quoted_translate|quoted_translate_plural)\("#,
         ["QuoteSystem/MessageCatalog.swift"]),
        ("@unchecked Sendable or nonisolated(unsafe) (ConditionLock: a pthread condition the compiler cannot see)",
         #"@unchecked\s+Sendable|nonisolated\(unsafe\)"#, ["QuoteSystem/ConditionLock.swift"]),
        // UTC is CivilDate's arithmetic; only the local zone needs glibc. SQLite's strftime('…') is SQL's own.
        ("glibc's calendar: localtime, gmtime, timegm, mktime, strftime, strptime (LocalTime)",
         #"(?<![A-Za-z0-9_.])(localtime|localtime_r|gmtime|gmtime_r|timegm|timelocal|mktime|strftime|strftime_l|strptime|asctime|asctime_r|ctime|ctime_r|curl_getdate)\((?!')"#,
         ["QuoteBase/Time/LocalTime.swift"]),
    ]

    /// The files whose code matches `pattern`, each line as "Sources/FILE:LINE: code".
    static func matches(of pattern: String, in lines: [(file: String, number: Int, text: String)]) throws -> [(file: String, place: String)] {
        let expression = try NSRegularExpression(pattern: pattern)
        return lines.filter { expression.firstMatch(in: $0.text, range: NSRange($0.text.startIndex..., in: $0.text)) != nil }
            .map { (file: $0.file, place: "Sources/\($0.file):\($0.number): \($0.text.trimmingCharacters(in: .whitespaces))") }
    }

    @Test(arguments: rules.map(\.name))
    func eachHasOneHome(rule: String) throws {
        let found = try #require(Self.rules.first { $0.name == rule })
        var lines: [(file: String, number: Int, text: String)] = []
        for file in SourceTree.swiftFiles() where !file.hasPrefix("migration-embedder/") && !file.hasPrefix("catalog-compiler/") {
            lines += try SourceTree.codeLines(file).map { (file, $0.number, $0.text) }
        }
        let matched = try Self.matches(of: found.pattern, in: lines)
        let elsewhere = matched.filter { !found.homes.contains($0.file) }.map(\.place)
        #expect(elsewhere.isEmpty, "\(rule) outside \(found.homes.sorted()):\n\(elsewhere.joined(separator: "\n"))")
        #expect(matched.contains { found.homes.contains($0.file) }, "the pattern finds nothing in \(found.homes.sorted())")
    }

    /// The patterns find what they are for, and not their look-alikes.
    @Test func theRulesSeeWhatTheyAreFor() throws {
        func hits(_ rule: Int, _ text: String) throws -> Bool {
            try !Self.matches(of: Self.rules[rule].pattern, in: [("x.swift", 1, text)]).isEmpty
        }
        let (clock, environment, locale, unchecked, calendar) = (0, 1, 2, 3, 4)
        #expect(try hits(clock, "Int(time(nil))"))
        #expect(try hits(clock, "_ = time(&now)"))
        #expect(try !hits(clock, "clock = time(words[3])"))
        #expect(try !hits(clock, "let now = UnixTime.now()"))
        #expect(try hits(environment, "guard let value = getenv(name) else { return nil }"))
        #expect(try hits(environment, "setenv(\"LESS\", \"FRX\", 1)"))
        #expect(try !hits(environment, "Environment.variable(\"LESS\")"))
        #expect(try !hits(environment, "Environment.setDefault(\"LIBDISPATCH_LOG\", \"NO\")"))
        #expect(try hits(locale, "guard setlocale(LC_ALL, \"\") != nil else { return nil }"))
        #expect(try hits(locale, "quoted_bind_catalog(setting.domain, folder)"))
        #expect(try !hits(locale, "MessageCatalog.translation(of: message)"))
        #expect(try !hits(locale, "let previous = uselocale(locale)"))
        #expect(try hits(unchecked, "final class Box: @unchecked Sendable {"))
        #expect(try hits(unchecked, "nonisolated(unsafe) static var shared = 0"))
        #expect(try !hits(unchecked, "final class Box: Sendable {"))
        #expect(try hits(calendar, "localtime_r(&moment, &parts)"))
        #expect(try hits(calendar, "let length = strftime(&buffer, buffer.count, format, &copy)"))
        #expect(try hits(calendar, "guard gmtime_r(&t, &parts) != nil"))
        #expect(try hits(calendar, "let seconds = timegm(&parts)"))
        #expect(try !hits(calendar, "json_object('published', strftime('%Y-%m-%dT%H:%M:%SZ', published, 'unixepoch'))"))
        #expect(try !hits(calendar, "let local = LocalTime(seconds)"))
        #expect(try !hits(calendar, "return UnixTime.localTimestamp(observation.observedAt)"))
    }
}
