import QuoteBase
/// Parsers for configuration values. Each returns nil when the text is not valid,
/// including when its number does not fit: nothing read here can overflow.
public enum ConfigValue {
    /// "30s", "5m", "1h", "1d", or combinations such as "1h30m"; in seconds.
    public static func duration(_ text: String) -> Int? {
        var total = 0
        var number = ""
        var sawUnit = false
        for character in text.lowercased() where character != " " {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            guard let value = Int(number) else { return nil }
            let unit: Int
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3_600
            case "d": unit = 86_400
            default: return nil
            }
            let (product, overflow) = value.multipliedReportingOverflow(by: unit)
            guard !overflow else { return nil }
            let (sum, sumOverflow) = total.addingReportingOverflow(product)
            guard !sumOverflow else { return nil }
            total = sum
            number = ""
            sawUnit = true
        }
        return sawUnit && number.isEmpty ? total : nil
    }

    /// "33554432", "512K", "32M", "32MiB", "1G"; in bytes.
    public static func size(_ text: String) -> Int? {
        var digits = text.trimmed.uppercased()
        for suffix in ["IB", "B"] where digits.hasSuffix(suffix) { digits.removeLast(suffix.count); break }
        var multiplier = 1
        if let last = digits.last, let power = ["K": 1, "M": 2, "G": 3][String(last)] {
            multiplier = 1 << (10 * power)
            digits.removeLast()
        }
        guard digits.trimmed.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits.trimmed), value > 0 else {
            return nil
        }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : bytes
    }

    /// "250ms", "1s", "0"; in milliseconds.
    public static func milliseconds(_ text: String) -> Int? {
        let value = text.trimmed.lowercased()
        if value == "0" { return 0 }
        if value.hasSuffix("ms") {
            let digits = value.dropLast(2)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(digits)
        }
        guard let seconds = duration(value) else { return nil }
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000)
        return overflow ? nil : milliseconds
    }

    /// A whole number written in plain digits (no sign, no spaces), or nil.
    public static func count(_ text: String) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    public static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: return nil
        }
    }

    /// "true or false" for a refusal: the words as the file writes them, in every language.
    public static var boolNames: String { tr("\(true) or \(false)") }
}

/// The allowed range of every numeric setting: the validator's only source, and what
/// its messages (and the documentation) say.
public enum ConfigLimits {
    /// interval: 1 minute to 30 days (down to 1 s for loopback hosts: tests and local imitations).
    public static let interval = 60...(30 * 86_400)
    public static let loopbackInterval = 1...interval.upperBound
    /// timeout, per request: 1 s to 10 minutes, whole seconds.
    public static let timeout = 1...600
    /// max_bytes: 1 KiB to 16 GiB. A list is spooled to disk beside the store (memory does not
    /// follow the body), so the ceiling bounds a transfer and its spool: a 10,000,000-quote list
    /// is ~1.7 GB.
    public static let maxBytes = 1_024...(1 << 34)
    /// pause between Breaking Bad requests: up to 1 minute, in milliseconds.
    public static let pauseMilliseconds = 0...60_000
    public static let knownStreak = 1...10_000
    public static let requestBudget = 1...10_000
    /// The longest `url` accepted.
    public static let urlLength = 2_048
    /// A Unix socket address holds at most 107 bytes of path (sun_path is 108, NUL included).
    public static let socketPathBytes = 107
}


/// Ranges and defaults as the configuration writes them ("1m to 30d", "32M"): derived from
/// ConfigLimits and SourceSettings, so quoted.conf(5) and the validator's messages never restate a number.
public enum ConfigText {
    /// 5400 -> "1h30m", 86400 -> "1d", 0 -> "0s".
    public static func duration(_ seconds: Int) -> String {
        guard seconds > 0 else { return "0s" }
        var text = ""
        var rest = seconds
        for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        return text
    }

    public static func milliseconds(_ value: Int) -> String {
        value % 1_000 == 0 ? duration(value / 1_000) : "\(value)ms"
    }

    /// 33554432 -> "32M".
    public static func size(_ bytes: Int) -> String { ByteCount.configUnits(bytes) }

    public static func durations(_ range: ClosedRange<Int>) -> Message { declared("\(duration(range.lowerBound)) to \(duration(range.upperBound))") }
    public static func sizes(_ range: ClosedRange<Int>) -> Message { declared("\(size(range.lowerBound)) to \(size(range.upperBound))") }
}
