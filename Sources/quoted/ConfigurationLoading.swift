import QuoteConfig

/// The configuration a command runs with, or nil once its one-line reason is on stderr (the
/// caller exits 78).
func loadedConfiguration(option: String?) -> Configuration? {
    do {
        return try ConfigFile.load(option: option)
    } catch {
        printError("quoted: \(error)")
        return nil
    }
}
