import QuoteBase
import QuoteText

/// What a hub's metrics say of the feed it publishes, read back from the manifest it wrote:
/// the publisher keeps no row of it, and the manifest is what spokes see.
public enum HubManifest {
    /// A manifest is a few kilobytes; anything near this is not one the publisher wrote.
    static let limit = 4 << 20

    /// The feed in `folder`'s manifest.json; nil when there is none yet or it cannot be read.
    public static func read(folder: String) -> FeedHealth? {
        let path = (folder.hasSuffix("/") ? folder : folder + "/") + "manifest.json"
        guard let bytes = try? FileReader.read(path, limit: limit), let value = try? JSONParser.parse(bytes),
              let name = value["name"]?.string, let serial = value["serial"]?.int, let generated = value["generated"]?.int,
              let validUntil = value["valid_until"]?.int else { return nil }
        return FeedHealth(name: name, serial: serial, generated: generated, validUntil: validUntil)
    }
}
