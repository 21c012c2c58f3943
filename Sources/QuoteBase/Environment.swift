import Glibc
import QuoteSystem

/// The process environment, without Foundation (quotectl must start like a C program).
public enum Environment {
    /// The command line's words after the program's name, read from argv as they are (invalid
    /// UTF-8 repaired, as `CommandLine.arguments` does). The standard library's own array is
    /// built through generic code whose first use every quotectl start would pay (docs/benchmarks.md).
    public static func arguments() -> [String] {
        let count = Int(CommandLine.argc)
        var words: [String] = []
        words.reserveCapacity(max(count - 1, 0))
        var index = 1
        while index < count {
            if let word = CommandLine.unsafeArgv[index] { words.append(String(cString: word)) }
            index += 1
        }
        return words
    }

    /// The variables a command run in-process reads instead of the process's own (a test's run,
    /// bound for its length with `withVariables`), so that runs side by side in one process each
    /// see their own. Nil in a program: each variable is read with getenv when it is asked for,
    /// and the environment is never copied whole.
    public static var variables: Variables? { bound.value }

    private static let bound = ThreadLocal<Variables?>(nil)

    /// Runs `operation` with `variables` in place of the process's environment on this thread.
    public static func withVariables<Result, Failure: Error>(_ variables: Variables, operation: () throws(Failure) -> Result) throws(Failure) -> Result {
        try bound.withValue(variables, operation: operation)
    }

    /// The variables of a run in-process. A type of its own, not `[String: String]?`: the
    /// thread-local's type is then made without instantiating a dictionary's metadata at run time,
    /// whose Hashable requirement is looked up by a scan of every conformance in the binary on
    /// every start (docs/benchmarks.md).
    public struct Variables: Sendable, ExpressibleByDictionaryLiteral {
        public let values: [String: String]

        public init(_ values: [String: String]) {
            self.values = values
        }

        public init(dictionaryLiteral elements: (String, String)...) {
            values = Dictionary(elements, uniquingKeysWith: { $1 })
        }
    }

    /// A variable's value, or nil when it is unset or empty.
    public static func variable(_ name: String) -> String? {
        if let variables = Self.variables {
            guard let value = variables.values[name], !value.isEmpty else { return nil }
            return value
        }
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// Sets `name` to `value` unless it is already set (an administrator's own setting wins).
    /// Call before any thread starts: setenv(3) is not safe beside a concurrent getenv.
    public static func setDefault(_ name: String, _ value: String) {
        setenv(name, value, 0)
    }

    /// An absolute path from a variable (XDG_* must be absolute to count), or nil.
    public static func absolutePath(_ name: String) -> String? {
        variable(name).flatMap { $0.hasPrefix("/") ? $0 : nil }
    }

    /// The first entry of a systemd directory variable (`STATE_DIRECTORY=/var/lib/quoted:...`).
    public static func systemdDirectory(_ name: String) -> String? {
        variable(name)?.split(separator: ":").first.map(String.init)
    }

    /// $HOME, else the home folder /etc/passwd gives this user. No getpwuid: in a fully
    /// static binary it would need glibc's NSS modules at run time.
    public static func home() -> String {
        if let home = absolutePath("HOME") { return home }
        let uid = String(CurrentProcess.userID)
        if let passwd = try? FileReader.read("/etc/passwd", limit: 16 << 20) {
            for line in String(decoding: passwd, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: ":", omittingEmptySubsequences: false)
                if fields.count >= 6, fields[2] == uid { return String(fields[5]) }
            }
        }
        return "/"
    }
}
