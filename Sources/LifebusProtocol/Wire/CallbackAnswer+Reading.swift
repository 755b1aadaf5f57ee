@_spi(RawJSON) public import LifebusJSON
import LifebusLifecycle

/// Reading an answer to a callback (one per app per event) straight from its text when it is written as the SDK
/// writes it, and leniently from a parsed value otherwise.
extension CallbackAnswer {
    /// Reads `{}`, `{"handlerMs":N}`, `{"handlerFailed":B}` or `{"handlerMs":N,"handlerFailed":B}` without building
    /// a tree; `nil` for any other text, which then takes the general path (parse, then `init(readingLeniently:)`).
    ///
    /// Same outcome as `init(json:)` on the parsed text whenever it answers: N is read by the parser's own number
    /// reader and must pass the same checks (finite, from 0 to `maxHandlerMs`); anything else is left to the
    /// general path.
    public init?(canonicalText text: UnsafeRawBufferPointer) {
        var scanner = JSONScanner(text)
        guard scanner.consume("{") else { return nil }
        var handlerMs: Double?
        var handlerFailed = false
        if scanner.consume("\"handlerMs\":") {
            guard scanner.index < scanner.count, let number = try? scanner.parseNumber().doubleValue,
                number.isFinite, number >= 0, number <= Self.maxHandlerMs
            else { return nil }
            handlerMs = number
            if scanner.consume(",") {
                guard scanner.consume("\"handlerFailed\":"), let flag = scanner.literalBool() else { return nil }
                handlerFailed = flag
            }
        } else if scanner.consume("\"handlerFailed\":") {
            guard let flag = scanner.literalBool() else { return nil }
            handlerFailed = flag
        }
        guard scanner.consume("}"), scanner.index == scanner.count else { return nil }
        self.init(handlerMs: handlerMs, handlerFailed: handlerFailed)
    }

    /// The answer `json` holds; an unreadable one still counts as an answer, with no handler time and not failed
    /// (the app's delegate method returned: only the detail is lost), keeping its restoration payload, fetch result
    /// and the presentation options it knows if it has them.
    public init(readingLeniently json: JSONValue) {
        self = (try? CallbackAnswer(json: json))
            ?? CallbackAnswer(
                restoration: json["restoration"].flatMap { $0.isNull ? nil : $0.jsonText },
                result: json["result"]?.stringValue.flatMap(BackgroundFetchResult.init(rawValue:)),
                presentation: json["presentation"].flatMap(NotificationPresentationOptions.init(leniently:)))
    }
}
