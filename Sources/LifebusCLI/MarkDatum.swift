import ArgumentParser

/// `lifebus expect --data-has KEY=VALUE`: one member the expected mark's data has (the value compared as a string's
/// text, else as JSON text). A plain value; the key is everything before the first `=`, which must be there.
struct MarkDatum: ExpressibleByArgument, Equatable {
    let key: String
    let value: String

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "=") else { return nil }
        key = String(argument[..<equals])
        value = String(argument[argument.index(after: equals)...])
    }
}
