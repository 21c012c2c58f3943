import QuoteModels
import QuoteStore
import QuoteUserState

/// Answers a `RandomRequest` from the store: draws at random (by the sources' weights, if any),
/// shuffles the matches when most of them are wanted, and with `--unseen` keeps to the quotes
/// this user has not been shown, starting a new round once every match has been. Sources named
/// as words are the only ones drawn from, on every path, as with `--source`; and the quotes this
/// user hid are never drawn, on any of these paths.
struct RandomDraw {
    let store: Store
    let hidden: KeptList
    private let picker: QuotePicker
    private var generator = SystemRandomNumberGenerator()
    /// The quotes drawn so far, and their ids (a quote is shown once per answer).
    private var quotes: [Quote] = []
    private var chosen = Set<Int>()
    /// False: `--unseen`'s history is left for the caller to save (`drawnSeen`), once the quotes
    /// were really shown (a notification that no server showed leaves its quote unseen).
    var savesSeen = true
    /// The `--unseen` history with this draw's quotes in it, when `savesSeen` is false.
    private(set) var drawnSeen: SeenQuotes?

    /// `hidden`: by default this user's hidden quotes, so that every mode drawing through here
    /// (random, a notification, a bar's follower) passes over them.
    init(store: Store, hidden: KeptList = UserStateUse.hidden()) {
        self.store = store
        self.hidden = hidden
        picker = store.quotes
    }

    mutating func quotes(for request: RandomRequest) throws -> [Quote] {
        var seen = request.unseen ? SeenQuotes(storePath: store.path) : nil
        // The answer's reads in one snapshot: `-n 10` takes the store's read lock once, not ten times.
        try picker.inOneSnapshot { try draw(request, seen: &seen) }
        if var state = seen, !quotes.isEmpty {
            for quote in quotes { state.insert(quote) }
            if savesSeen { state.save() } else { drawnSeen = state }
        }
        return quotes
    }

    private mutating func draw(_ request: RandomRequest, seen: inout SeenQuotes?) throws {
        let filter = request.filter
        let weights = try self.weights(for: request)
        let scope = Self.scope(filter, shares: request.shares, weights: weights)
        guard !scope.isEmpty else { return }
        // More than a few asked for: never more than match (-n 1000000000 on 284 quotes costs
        // what 284 cost), and when most of the matches are wanted, a shuffle of them beats
        // drawing at random and throwing repeats away.
        var wanted = request.count
        var matches: Int?
        if request.count > 64 {
            var total = 0
            for part in scope { total += try picker.count(part) }
            wanted = min(request.count, total)
            matches = total
        }
        // Asked for most of the matches, weights or not, every one of them is shown: shuffle them.
        if matches.map({ wanted * 2 < $0 }) ?? true {
            try drawAtRandom(filter, weights: weights, wanted: wanted, skipping: seen)
        }
        if seen == nil, quotes.count < wanted { try addShuffled(scope, wanted: wanted) }
        if var state = seen, quotes.count < wanted {
            try addUnseen(scope, wanted: wanted, seen: &state)
            seen = state
        }
    }

    /// The sources to draw from, with their weights (none: uniform over every match).
    private func weights(for request: RandomRequest) throws -> [(String, Double)] {
        guard !request.shares.isEmpty || request.equal else { return [] }
        let named = request.shares.isEmpty ? nil : request.shares.entries.map(\.source)
        return try request.shares.weights(available: picker.sourcesMatching(request.filter, among: named), equal: request.equal)
    }

    /// Where the draw may take its quotes from: the filter alone, or with sources named as words
    /// the filter narrowed to each of them that has a share (so that what fills up after the
    /// weighted picks, when they found too few, never comes from a source nobody named).
    private static func scope(_ filter: QuoteFilter, shares: SourceShares, weights: [(String, Double)]) -> [QuoteFilter] {
        guard !shares.isEmpty else { return [filter] }
        return weights.map { weight in
            var narrowed = filter
            narrowed.source = weight.0
            return narrowed
        }
    }

    /// Every quote of the scope, each once: two named sources may overlap (custom and custom.zen).
    private func matchingKeys(_ scope: [QuoteFilter]) throws -> [(id: Int, source: String, upstreamID: String)] {
        var keys: [(id: Int, source: String, upstreamID: String)] = []
        var ids = Set<Int>()
        for part in scope {
            for key in try picker.matchingKeys(part) where !ids.contains(key.id) {
                ids.insert(key.id)
                keys.append(key)
            }
        }
        return keys
    }

    private func isHidden(_ source: String, _ upstreamID: String) -> Bool {
        !hidden.isEmpty && hidden.contains(QuoteKey(source: source, upstreamID: upstreamID))
    }

    /// Random picks until enough are drawn, repeats and seen ones thrown away (a bounded number of tries).
    private mutating func drawAtRandom(_ filter: QuoteFilter, weights: [(String, Double)], wanted: Int,
                                       skipping seen: SeenQuotes?) throws {
        var attempts = 0
        while quotes.count < wanted, attempts < wanted * 32 + 64 {
            attempts += 1
            var narrowed = filter
            if !weights.isEmpty { narrowed.source = SourceShares.draw(weights, using: &generator) }
            guard let quote = (try picker.random(narrowed, using: &generator)) else { break }
            if chosen.contains(quote.id) || (seen?.contains(quote) ?? false) || isHidden(quote.source, quote.upstreamID) { continue }
            // Only a draw of more than one quote needs to know what it drew: a Set's storage,
            // made on its first insert, costs a run-time conformance lookup on every start.
            if wanted > 1 { chosen.insert(quote.id) }
            quotes.append(quote)
        }
    }

    /// The rest, from a shuffle of every match not drawn yet.
    private mutating func addShuffled(_ scope: [QuoteFilter], wanted: Int) throws {
        var rest = try matchingKeys(scope).filter { !chosen.contains($0.id) && !isHidden($0.source, $0.upstreamID) }
        rest.shuffle(using: &generator)
        for key in rest.prefix(wanted - quotes.count) {
            if let quote = (try picker.quote(id: key.id)) { quotes.append(quote) }
        }
    }

    /// Random picks keep landing on what was seen: choose among the unseen ones directly, and
    /// once every match has been seen, start a new round for these matches.
    private mutating func addUnseen(_ scope: [QuoteFilter], wanted: Int, seen state: inout SeenQuotes) throws {
        let keys = try matchingKeys(scope).filter { !isHidden($0.source, $0.upstreamID) }
        var unseen = keys.filter { !state.keys.contains(SeenQuotes.key(source: $0.source, upstreamID: $0.upstreamID)) && !chosen.contains($0.id) }
        if unseen.isEmpty, quotes.isEmpty {
            for key in keys { state.remove(SeenQuotes.key(source: key.source, upstreamID: key.upstreamID)) }
            unseen = keys
        }
        unseen.shuffle(using: &generator)
        for key in unseen.prefix(wanted - quotes.count) {
            if let quote = (try picker.quote(id: key.id)) { quotes.append(quote) }
        }
    }
}
