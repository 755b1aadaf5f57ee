import LifebusJSON

/// Parses a line the broker sent; `nil` if there was none or it is not JSON.
func parsed(_ line: String?) -> JSONValue? {
    guard let line else { return nil }
    return try? JSONParser.parse(line)
}

/// The error code of a response line, if it is an error response.
func errorCode(_ line: String?) -> Int64? {
    parsed(line)?["error"]?["code"]?.int64Value
}

/// The `error.data.name` of an error response line, or the `params.data.name` of a `lifebus.error` notification.
func errorName(_ line: String?) -> String? {
    guard let message = parsed(line) else { return nil }
    return (message["error"] ?? message["params"])?["data"]?["name"]?.stringValue
}
