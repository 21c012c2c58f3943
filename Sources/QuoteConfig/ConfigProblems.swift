/// Every problem of one configuration file, gathered while its sections are read: one reading
/// names them all, in line order, as a compiler does, rather than the first it meets.
final class ConfigProblems {
    private(set) var found: [ConfigError] = []

    func add(_ problem: ConfigError) {
        found.append(problem)
    }

    /// Runs `read`; a problem it throws is kept, and the reading goes on past it.
    func recording(_ read: () throws(ConfigError) -> Void) {
        do throws(ConfigError) {
            try read()
        } catch {
            found.append(error)
        }
    }

    /// Whether a problem was found on `line`: the value of the key written there was refused.
    func contains(line: Int) -> Bool {
        found.contains { $0.line == line }
    }

    /// The first problem in line order, holding the others in that order (those found on one
    /// line in the order found); nil when the file has none.
    var firstInLineOrder: ConfigError? {
        let ordered = found.enumerated()
            .sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
            .map { $0.element }
        guard var first = ordered.first else { return nil }
        first.others = Array(ordered.dropFirst())
        return first
    }
}
