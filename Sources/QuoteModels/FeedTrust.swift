/// What a spoke trusts of one hub's feed: the manifest it applied last (its serial, the floor
/// from then on), until when that is valid, and when the hub last answered.
public struct FeedTrust: Sendable, Equatable {
    public var name: String
    public var serial: Int
    public var generated: Int
    public var validUntil: Int
    public var checkedAt: Int

    public init(name: String, serial: Int, generated: Int, validUntil: Int, checkedAt: Int) {
        self.name = name
        self.serial = serial
        self.generated = generated
        self.validUntil = validUntil
        self.checkedAt = checkedAt
    }
}
