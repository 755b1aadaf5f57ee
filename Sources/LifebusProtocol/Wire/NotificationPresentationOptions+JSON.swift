public import LifebusJSON
public import LifebusLifecycle

/// The wire form of `NotificationPresentationOptions`: an array of option names (`["banner","sound"]`, `[]` for
/// none), in `willPresentNotification`'s answer (`presentation`) and in the journal's `push … presented` record.
extension NotificationPresentationOptions {
    /// The array of names, in wire order.
    public var json: JSONValue {
        .array(names.map { .string($0) })
    }

    /// Reads an array of option names; -32602 naming `field` on anything else or an unknown name.
    public init(json: JSONValue, field: String) throws(RPCError) {
        guard let elements = json.arrayValue else {
            throw RPCError.invalidParams(field: field, "must be an array of presentation options")
        }
        self = []
        for element in elements {
            guard let name = element.stringValue, let option = NotificationPresentationOptions(name: name) else {
                let names = Self.allOptions.map(\.name).joined(separator: ", ")
                throw RPCError.invalidParams(field: field, "must hold only \(names)")
            }
            insert(option)
        }
    }

    /// Reads what it can of an array of option names: the names it knows, the others ignored; `nil` for a value
    /// that is not an array (an answer read leniently, `CallbackAnswer(readingLeniently:)`).
    init?(leniently json: JSONValue) {
        guard let elements = json.arrayValue else { return nil }
        self = []
        for case .string(let name) in elements {
            if let option = NotificationPresentationOptions(name: name) { insert(option) }
        }
    }
}
