import QuoteBase
import QuoteConfig
import QuoteFeed
import QuoteFormats
import QuoteModels
import QuoteStore
import QuoteText

/// A source synced from a hub's feed instead of its upstream (a spoke's adapter). The file the
/// manifest names is fetched only when its SHA-256 differs from the one applied last, checked
/// against the manifest's size and SHA-256 before a byte is decoded, then decoded by the
/// source's own rules — the custom-list, Upbit and OpenWeatherMap formats by their adapters —
/// and applied like any sync: all or nothing, the shrink guard, the size cap.
enum FeedSource {
    /// The key under which a fed source's applied digest is kept (one per source and hub).
    static func validatorKey(_ fleet: FleetSettings, source: String) -> String { fleet.manifestURL + "#" + source }

    /// `fleet` names the feed (what the applied digest is kept under); `mirror` is where the file is read.
    static func update(_ entry: Manifest.Entry, of manifest: Manifest, fleet: FleetSettings, from mirror: FleetSettings,
                       _ context: SyncContext) async throws(SourceFailure) -> SourceUpdate {
        let key = validatorKey(fleet, source: entry.name)
        let applied = Validators(url: key, bodySHA256: entry.sha256)
        // Mix-and-match: never feed a source from an older manifest than the one its data came from.
        let name = entry.name
        if let held = try context.askStore({ (knowledge) throws(StoreError) in try knowledge.feedSerial(source: name) }),
           FeedSerial.isOlder(manifest.serial, than: held) {
            throw SourceFailure("feed: \(entry.name) holds data of manifest \(held), newer than this one (\(manifest.serial)); not applied")
        }
        if try context.storedValidators(for: key)?.bodySHA256 == entry.sha256 {
            return recordingSerial(.unchanged(what: "feed unchanged", validators: [applied], status: 200), entry, manifest)
        }
        let url = mirror.url(of: entry.file)
        guard entry.size <= fleet.maxBytes else {
            throw SourceFailure("feed: \(entry.file) is \(entry.size) bytes, more than max_bytes in [fleet]")
        }
        // At most the signed size is read, and gzip's framing (nginx serves the .gz twin, whose
        // length is what the cap sees on the wire; incompressible data grows by 5 bytes a 64 KiB
        // block): a longer file ends the transfer as a failure, nothing held past it.
        let cap = entry.size.addingReportingOverflow(entry.size / 8_192 + 1_024)
        var request = HTTPRequest(url: url, timeout: fleet.timeout, maxBytes: cap.overflow ? fleet.maxBytes : min(cap.partialValue, fleet.maxBytes),
                                  allowHTTP: !fleet.isHTTPS)
        request.httpsOnly = fleet.isHTTPS
        request.caFile = fleet.caFile
        let tooLong = SourceFailure("feed: \(entry.file) is longer than the \(entry.size) bytes its signed manifest gives; nothing applied")
        // A list is spooled as it arrives, as a direct one is (a million quotes are 170 MB):
        // the engine commits it only when the bytes hashed to the signed SHA-256.
        if SourceName.kind(of: entry.name) == .custom {
            return recordingSerial(try await streamedList(entry, request: request, tooLong: tooLong, applied: applied, context), entry, manifest)
        }
        let response: HTTPResponse
        do {
            response = try await context.send(request)
        } catch where error.isTooLarge {
            throw tooLong
        }
        guard response.status == 200 else { throw SourceFailure("feed: \(entry.file): HTTP \(response.status)", httpStatus: response.status) }
        guard response.body.count == entry.size else {
            throw SourceFailure("feed: \(entry.file) is \(response.body.count) bytes, the manifest says \(entry.size); nothing applied")
        }
        guard let digest = FeedDigest.hex(response.body) else {
            throw SourceFailure("feed: \(entry.file): libcrypto could not compute SHA-256 (check OPENSSL_CONF); nothing applied")
        }
        guard digest == entry.sha256 else {
            throw SourceFailure("feed: \(entry.file) does not match the manifest's SHA-256; nothing applied")
        }
        var update = try decode(entry, response: response, applied: applied, context)
        update.validators = [applied]
        let describe = update.describe
        update.describe = { counts in "from the hub: " + describe(counts) }
        return recordingSerial(update, entry, manifest)
    }

    /// A list's file, spooled as it arrives and merged in the transaction; refused (the spool dropped) when
    /// it is longer than signed or its bytes are not the signed ones.
    private static func streamedList(_ entry: Manifest.Entry, request: HTTPRequest, tooLong: SourceFailure, applied: Validators,
                                     _ context: SyncContext) async throws(SourceFailure) -> SourceUpdate {
        // The hub writes every list into its feed as JSON with the default fields, whatever format
        // the hub read it in: a spoke reads that, never its own configuration's format.
        let loader = ListLoader(context, format: .json, reader: CustomList.Reader(source: entry.name))
        var request = request
        request.bodySink = loader
        let response: HTTPResponse
        do {
            response = try await context.send(request)
        } catch {
            loader.stop()
            throw error.isTooLarge ? tooLong : loader.failure ?? error
        }
        guard response.status == 200 else {
            loader.stop()
            throw SourceFailure("feed: \(entry.file): HTTP \(response.status)", httpStatus: response.status)
        }
        guard let digest = loader.digest() else {
            loader.stop()
            throw SourceFailure("feed: \(entry.file): libcrypto could not compute SHA-256 (check OPENSSL_CONF); nothing applied")
        }
        guard digest == entry.sha256 else {
            loader.stop()
            throw SourceFailure("feed: \(entry.file) does not match the manifest's SHA-256; nothing applied")
        }
        var update = try loader.update(validators: applied, status: 200)
        update.validators = [applied]
        let describe = update.describe
        update.describe = { counts in "from the hub: " + describe(counts) }
        return update
    }

    /// `update`, which also records, in its transaction, the manifest the source's data now comes from.
    private static func recordingSerial(_ update: SourceUpdate, _ entry: Manifest.Entry, _ manifest: Manifest) -> SourceUpdate {
        var update = update
        let apply = update.apply
        let (name, feed, serial) = (entry.name, manifest.name, manifest.serial)
        update.apply = { connection, now in
            let counts = try apply(&connection, now)
            try connection.feedTrust.recordSourceSerial(name, name: feed, serial: serial)
            return counts
        }
        return update
    }

    private static func decode(_ entry: Manifest.Entry, response: HTTPResponse, applied: Validators,
                               _ context: SyncContext) throws(SourceFailure) -> SourceUpdate {
        switch SourceName.kind(of: entry.name) {
        case .upbit: return try UpbitSource.update(from: response, validators: applied, context)
        case .weather:
            let document = try context.json(response, what: "the feed's weather")
            guard let lat = document["coord"]?["lat"]?.double, let lon = document["coord"]?["lon"]?.double,
                  let units = document["units"]?.string, ["metric", "imperial", "standard"].contains(units) else {
                throw SourceFailure("feed: the weather observation lacks coord or units")
            }
            return try WeatherSource.update(from: document, latitude: lat, longitude: lon, units: units, context)
        case .happiness: return try happiness(context.json(response, what: "the feed's happiness archive"), context)
        case .breakingbad: return try breakingBad(context.json(response, what: "the feed's Breaking Bad bundle"), context)
        case .custom: throw SourceFailure("feed: \(entry.name): a list is streamed, never read whole")
        case .builtin, nil: throw SourceFailure("feed: \(entry.name) is not a source that syncs")
        }
    }

    /// `{"quotes": [{id, content, author}], "days": [{day, id}]}`: every quote the hub holds and the day each was the quote of.
    static func happiness(_ document: JSONValue, _ context: SyncContext) throws(SourceFailure) -> SourceUpdate {
        guard let records = document["quotes"]?.array, let dayRecords = document["days"]?.array else {
            throw SourceFailure("feed: the happiness archive lacks quotes or days")
        }
        var quotes: [Quote] = []
        var skipped = 0
        for record in records {
            guard let object = record.object, case .success(let quote) = HappinessSource.quote(from: object) else { skipped += 1; continue }
            quotes.append(quote)
        }
        var days: [(day: String, id: String)] = []
        for record in dayRecords {
            guard let day = record["day"]?.string, day.utf8.count == 10, let id = record["id"]?.int else { skipped += 1; continue }
            days.append((day, String(id)))
        }
        var update = SourceUpdate { counts in Plural.count(quotes.count, "quote") + ", " + Plural.count(days.count, "day") + ", " + changeSummary(counts) }
        update.skipped = skipped
        let url = context.settings.url
        update.apply = { connection, now in
            let writer = connection.quotes
            try writer.ensureSource(SourceName.happiness, url: url, now: now)
            let counts = try writer.apply(quotes, to: SourceName.happiness, removeMissing: false, now: now)
            for entry in days { try writer.setDailyQuote(source: SourceName.happiness, upstreamID: entry.id, day: entry.day) }
            return counts
        }
        return update
    }

    /// `{"quotes": [...], "characters": [...], "deaths": [...], "unknown_characters": [...]}`, each
    /// in the API's own shape: the whole of what the hub sampled and looked up.
    static func breakingBad(_ document: JSONValue, _ context: SyncContext) throws(SourceFailure) -> SourceUpdate {
        guard let quoteRecords = document["quotes"]?.array, let characterRecords = document["characters"]?.array,
              let deathRecords = document["deaths"]?.array, let unknownRecords = document["unknown_characters"]?.array else {
            throw SourceFailure("feed: the Breaking Bad bundle lacks quotes, characters, deaths or unknown_characters")
        }
        let quotes = quoteRecords.compactMap(BreakingBadSource.quote(from:))
        let characters = characterRecords.compactMap(BreakingBadSource.character(from:))
        let deaths = deathRecords.compactMap(BreakingBadSource.death(from:))
        let unknown = unknownRecords.compactMap { value in (try? RecordText.optional(value, field: "name")) ?? nil }
        let skipped = quoteRecords.count - quotes.count + characterRecords.count - characters.count + deathRecords.count - deaths.count
        var update = SourceUpdate { counts in
            Plural.count(quotes.count, "quote") + ", " + Plural.count(characters.count, "character") + ", "
                + Plural.count(deaths.count, "death") + ", " + changeSummary(counts)
        }
        update.skipped = skipped
        let settings = context.settings
        update.apply = { connection, now in
            let writer = connection.quotes
            try writer.ensureSource(SourceName.breakingbad, url: settings.url, now: now)
            var counts = try writer.apply(quotes, to: SourceName.breakingbad, removeMissing: false, now: now)
            let records = connection.records
            counts += try records.replaceDeaths(deaths, keep: [], now: now) { toRemove, stored in
                try ShrinkGuard.check(what: "deaths", removing: toRemove, of: stored, incoming: deaths.count,
                                      allowed: settings.allowShrink, minimumStored: 1, httpStatus: 200)
            }
            counts += try records.upsertCharacters(characters, now: now)
            try records.markUnknownCharacters(unknown, now: now)
            return counts
        }
        return update
    }
}
