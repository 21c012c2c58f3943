import QuoteBase

/// "1h", "30m", "1d 6h": a duration in running text, its units in the user's language (Korean
/// reads "1시간마다", not "1h마다"). A value the configuration takes is ConfigText.duration's.
func durationText(_ seconds: Int) -> String {
    var parts: [String] = []
    var rest = seconds
    for size in [86_400, 3_600, 60, 1] where rest >= size {
        parts.append(durationPart(rest / size, unitSeconds: size))
        rest %= size
    }
    return parts.isEmpty ? durationPart(0, unitSeconds: 1) : parts.joined(separator: " ")
}

/// `count` units of `unitSeconds` seconds each: "6h".
private func durationPart(_ count: Int, unitSeconds: Int) -> String {
    switch unitSeconds {
    // TRANSLATORS: days in a duration people read ("1d 6h", "every 1d").
    case 86_400: return tr("\(count)d")
    // TRANSLATORS: hours in a duration people read ("1d 6h", "every 1h").
    case 3_600: return tr("\(count)h")
    // TRANSLATORS: minutes in a duration people read ("1h 30m", "every 30m").
    case 60: return tr("\(count)m")
    // TRANSLATORS: seconds in a duration people read ("1m 30s").
    default: return tr("\(count)s")
    }
}
