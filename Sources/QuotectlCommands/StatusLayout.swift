import QuoteBase
import QuoteCommandLine
import QuoteHealth
import QuoteModels
import QuoteStore
import QuoteText

/// `status --format`: a line per source through the user's template, or the store's freshness
/// in one piece for a bar (waybar, i3blocks, polybar, tmux) — "quotes: 4/5 fresh" with the
/// failing sources named, and for waybar a class (`fresh`, `stale` or `failing`) to colour by.
enum StatusLayout {
    /// What a source is, in one word, for a template's {state} and a bar's class: QuoteHealth's
    /// rule, the one `check`, the metrics and the daemon's status line follow.
    typealias State = Freshness

    static func state(of source: SourceStatus, now: Int) -> State {
        Freshness.of(consecutiveFailures: source.consecutiveFailures, feedExpired: source.feedExpired(now: now),
                     isBuiltin: source.name == SourceName.builtin, lastSuccess: source.lastSuccess, nextDue: source.nextDue, now: now)
    }

    static func line(_ template: FieldTemplate<StatusField>, source: SourceStatus, now: Int) -> String {
        QuoteLine.oneLine(template.render { field in
            switch field {
            case .source: return source.name
            case .quotes: return String(source.quotes)
            case .state: return state(of: source, now: now).rawValue
            // English on purpose: a template field scripts read ("3 h ago", "never").
            case .lastSuccess: return source.lastSuccess.map { UnixTime.relative($0, now: now) } ?? "never"
            case .nextDue: return source.nextDue.map { UnixTime.relative($0, now: now) } ?? "-"
            case .error: return source.lastError ?? ""
            }
        })
    }

    /// The whole store for a bar: lines to print. Only the sources that sync (`syncing`: the
    /// configuration's enabled ones) count; the built-in set is always there.
    static func bar(_ bar: QuoteLayout.Bar, sources all: [SourceStatus], syncing: Set<String>, now: Int, maxWidth: Int?) -> [String] {
        let sources = all.filter { syncing.contains($0.name) }
        let states = sources.map { ($0, state(of: $0, now: now)) }
        let fresh = states.filter { $0.1 == .fresh }.count
        let failing = states.filter { $0.1 == .failing }.map { $0.0.name }
        var text = "quotes: \(fresh)/\(sources.count) fresh"
        if !failing.isEmpty { text += "; failing: " + failing.joined(separator: ", ") }
        if let maxWidth { text = DisplayWidth.shortened(text, to: maxWidth) }
        let overall = !failing.isEmpty ? "failing" : fresh == sources.count ? "fresh" : "stale"
        switch bar {
        case .waybar:
            let tooltip = states.map { source, state in
                "\(source.name): \(state.rawValue)" + (source.lastError.map { " (\(QuoteLine.oneLine($0)))" } ?? "")
            }.joined(separator: "\n")
            return [Waybar.object(text: text, tooltip: tooltip, classes: ["quoted-status", overall], alt: overall)]
        case .i3blocks: return [text, "\(fresh)/\(sources.count)"]
        case .polybar, .tmux: return [bar.escaped(text)]
        }
    }
}

/// The fields a status template may name, one line per source.
enum StatusField: String, TemplateField {
    case source, quotes, state
    case lastSuccess = "last_success"
    case nextDue = "next_due"
    case error
}

extension SourceStatus {
    /// Whether it came from a feed whose manifest has expired: QuoteHealth's rule (the store's
    /// status knows none), the one the health reading follows.
    func feedExpired(now: Int) -> Bool { Freshness.feedExpired(fromFeed: fromHub, validUntil: feedValidUntil, now: now) }
}
