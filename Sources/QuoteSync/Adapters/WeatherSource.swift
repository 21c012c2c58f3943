import QuoteBase
import QuoteConfig
import QuoteModels
import QuoteStore
import QuoteText

/// OpenWeatherMap current weather: one observation per run for the configured
/// place. The API key travels in the query and is never printed or logged:
/// every message built here names the host and path only.
enum WeatherSource {
    static func sync(_ context: SyncContext) async throws(SourceFailure) -> SourceUpdate {
        let settings = context.settings
        guard let key = settings.apiKey else {
            throw SourceFailure("no API key configured (api_key or api_key_file)", isConfiguration: true)
        }
        var parameters = [("lat", String(settings.latitude)), ("lon", String(settings.longitude)), ("appid", key),
                          ("units", settings.units)]
        if let language = settings.language { parameters.append(("lang", language)) }
        let url = URLText.adding(parameters, to: settings.url)
        let response = try await context.send(HTTPRequest(url: url, timeout: settings.timeout, maxBytes: settings.maxBytes,
                                                          allowHTTP: settings.allowHTTP))
        switch response.status {
        case 200: break
        case 401:
            throw SourceFailure("API key rejected (HTTP 401)", httpStatus: 401, isConfiguration: true)
        case 429:
            var failure = context.statusFailure(response)
            failure.retryAfter = failure.retryAfter ?? context.now + 60
            throw failure
        default:
            throw context.statusFailure(response)
        }
        let document = try context.json(response, what: "the weather reply")
        return try update(from: document, latitude: settings.latitude, longitude: settings.longitude, units: settings.units, context)
    }

    /// What an observation changes: OpenWeatherMap's reply, or a hub's (with its place and units).
    static func update(from document: JSONValue, latitude: Double, longitude: Double, units: String,
                       _ context: SyncContext) throws(SourceFailure) -> SourceUpdate {
        let settings = context.settings
        guard let object = document.object, let observedAt = object["dt"]?.int else {
            throw SourceFailure("the weather reply has no \"dt\"", httpStatus: 200)
        }
        let main = object["main"]
        let condition = object["weather"]?.array?.first
        let clean = { (value: JSONValue?) -> String? in value?.string.map(TerminalSanitizer.clean) }
        let observation = WeatherObservation(
            lat: latitude, lon: longitude, observedAt: observedAt, place: clean(object["name"]),
            country: clean(object["sys"]?["country"]), condition: clean(condition?["main"]),
            description: clean(condition?["description"]), temp: main?["temp"]?.double,
            feelsLike: main?["feels_like"]?.double, humidity: main?["humidity"]?.int,
            windSpeed: object["wind"]?["speed"]?.double, units: units)
        let extra = WeatherExtra(tempMin: main?["temp_min"]?.double, tempMax: main?["temp_max"]?.double,
                                 pressure: main?["pressure"]?.int, windDegrees: object["wind"]?["deg"]?.int,
                                 clouds: object["clouds"]?["all"]?.int, sunrise: object["sys"]?["sunrise"]?.int,
                                 sunset: object["sys"]?["sunset"]?.int)
        var update = SourceUpdate { counts in
            var text = observation.place ?? "observation"
            if let temp = observation.temp { text += " \(temp)" + (units == "metric" ? "°C" : units == "imperial" ? "°F" : " K") }
            if let description = observation.description { text += ", \(description)" }
            return text + (counts.inserted > 0 ? " (new)" : " (already stored)")
        }
        update.httpStatus = 200
        update.apply = { connection, now in
            try connection.quotes.ensureSource(SourceName.weather, url: URLText.redacted(settings.url), now: now)
            return try connection.records.insertWeather(observation, extra: extra, now: now)
        }
        return update
    }
}
