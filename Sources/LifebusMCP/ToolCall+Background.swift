import LifebusJSON
import LifebusProtocol
import LifebusTimeline

/// The `protected_data` tool (the broker's `protectedData` query, issue 28) and the `timeline` tool's `width`.
extension ToolCall {
    func protectedData() {
        ask(LifebusMethod.protectedData, [:]) { value in
            guard let result = try? ProtectedDataParams(json: value) else {
                return ToolResult.failure(.internalError("the broker's protectedData answer did not parse"))
            }
            let text = result.available
                ? "protected data is available"
                : "protected data is unavailable (the device is locked: complete files fail with EPERM)"
            return ToolResult.success(text, structured: result.json)
        }
    }

    /// `; tasks: com.example.refresh appRefresh pending`: an app's pending and running BGTasks in a status line.
    static func tasks(_ entries: [JSONValue]) -> String {
        guard !entries.isEmpty else { return "" }
        return "; tasks: " + entries.map { entry in
            ["identifier", "kind", "state"].map { entry[$0]?.stringValue ?? "?" }.joined(separator: " ")
        }.joined(separator: ", ")
    }

    /// The svg picture's width: `value` (whole pixels within `SVGTimeline`'s bounds, svg only) or the default.
    static func svgWidth(_ value: JSONValue?, format: String) throws(RPCError) -> Double {
        guard let value else { return SVGTimeline.defaultWidth }
        guard format == "svg" else { throw RPCError.invalidParams(field: "width", "is for format svg") }
        let range = SVGTimeline.minimumWidth...SVGTimeline.maximumWidth
        guard let pixels = value.doubleValue, pixels == pixels.rounded(), range.contains(pixels) else {
            throw RPCError.invalidParams(
                field: "width", "must be a whole number of pixels from \(Int(range.lowerBound)) to "
                    + "\(Int(range.upperBound))")
        }
        return pixels
    }
}
