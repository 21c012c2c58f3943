import QuoteBase
/// How many distinct items a pool holds, estimated from random draws with replacement
/// (Breaking Bad's quotes/random): the bias-corrected Chao1 estimator,
/// S = observed + f1(f1 - 1) / (2(f2 + 1)), where f1 and f2 count the items drawn once
/// and twice. Many singletons mean much is still unseen; once most items have been drawn
/// twice or more, the estimate meets the observed count.
public struct PoolEstimate: Equatable, Sendable {
    public var observed: Int
    public var singletons: Int
    public var doubletons: Int
    public var draws: Int
    /// A sum of several pools' estimates (they are estimated one by one, then added).
    private var estimatedOverride: Double?

    public init(observed: Int = 0, singletons: Int = 0, doubletons: Int = 0, draws: Int = 0) {
        self.observed = observed
        self.singletons = singletons
        self.doubletons = doubletons
        self.draws = draws
    }

    /// From how many times each item was drawn.
    public init<C: Collection>(drawCounts: C) where C.Element == Int {
        self.init(observed: drawCounts.count, singletons: drawCounts.filter { $0 == 1 }.count,
                  doubletons: drawCounts.filter { $0 == 2 }.count, draws: drawCounts.reduce(0, +))
    }

    public init(observed: Int, estimatedOverride: Double, draws: Int) {
        self.init(observed: observed, draws: draws)
        self.estimatedOverride = estimatedOverride
    }

    public var estimated: Double {
        if let estimatedOverride { return estimatedOverride }
        return Double(observed) + Double(singletons) * Double(max(singletons - 1, 0)) / (2 * Double(doubletons + 1))
    }

    /// The share of the pool not yet seen (0...1); 1 when nothing was drawn.
    public var unseenShare: Double {
        guard observed > 0 else { return 1 }
        return max(0, 1 - Double(observed) / estimated)
    }
}

/// One sampled item: a quote id within the production it was drawn for.
public struct SamplingKey: Hashable, Sendable {
    public let production: String
    public let upstreamID: String

    public init(production: String, upstreamID: String) {
        self.production = production
        self.upstreamID = upstreamID
    }
}
