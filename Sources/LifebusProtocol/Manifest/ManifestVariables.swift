/// The variables of a manifest's strings (`Protocol/README.md` §16.1): `${NAME}` is replaced by the variable's value,
/// `${NAME:-default}` by the value or, exactly when the variable is unset, by `default` (taken as written, up to the
/// first `}`); `$$` is one `$`; a `$` followed by anything else stays as it is (`$HOME` in a hook reaches its shell).
/// Refused: a variable that is unset and has no default, a `${` with no `}`, and a name that is not
/// `[A-Za-z_][A-Za-z0-9_]*`.
///
/// Stateless and pure: the values come from a lookup the caller gives (the installing client's environment, or
/// the broker's for `lifebusd --apps DIR`).
public enum ManifestVariables {
    /// Why a string could not be expanded; `variable` names the variable (or the text that is not a name).
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable {
            /// `${NAME}` of a variable that is not set.
            case unset
            /// A `${` with no `}` after it.
            case unclosed
            /// The text between `${` and `}` (or `:-`) is not a variable name.
            case badName
        }

        public let kind: Kind
        public let variable: String

        public init(_ kind: Kind, variable: String) {
            self.kind = kind
            self.variable = variable
        }

        public var description: String {
            switch kind {
            case .unset: "variable \"\(variable)\" is not set (give it, or a default: ${\(variable):-default})"
            case .unclosed: "\"${\(variable)\" is not closed by \"}\""
            case .badName: "\"\(variable)\" is not a variable name ([A-Za-z_][A-Za-z0-9_]*; $$ is a literal $)"
            }
        }
    }

    /// `text` with every `${…}` replaced and every `$$` made `$`.
    public static func expand(
        _ text: String, _ value: (String) -> String?
    ) throws(Problem) -> String {
        guard text.utf8.contains(dollar) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        for piece in try pieces(of: Array(text.utf8)) {
            switch piece {
            case .literal(let bytes):
                result.append(contentsOf: bytes)
            case .variable(let name, let fallback):
                guard let found = value(name) ?? fallback else { throw Problem(.unset, variable: name) }
                result.append(contentsOf: found.utf8)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The names `text` refers to, each once, in order of first use (what an installing client sends the values of).
    /// A malformed `${…}` names nothing (the broker refuses it with the values it was given).
    public static func names(in text: String) -> [String] {
        var names: [String] = []
        var bytes = Array(text.utf8)[...]
        while let start = bytes.firstIndex(of: dollar) {
            let rest = bytes[(start + 1)...]
            if rest.first == dollar {
                bytes = rest.dropFirst()
                continue
            }
            guard rest.first == openBrace, let close = rest.firstIndex(of: closeBrace) else {
                bytes = rest
                continue
            }
            let inside = rest[(rest.startIndex + 1)..<close]
            let name = String(decoding: inside.prefix { $0 != colon }, as: UTF8.self)
            if isName(name), !names.contains(name) { names.append(name) }
            bytes = rest[(close + 1)...]
        }
        return names
    }

    /// Whether `name` is a variable name: `[A-Za-z_][A-Za-z0-9_]*`.
    public static func isName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isLetter(first) else { return false }
        return name.utf8.allSatisfy { isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    private enum Piece {
        case literal(ArraySlice<UInt8>)
        case variable(String, fallback: String?)
    }

    private static func pieces(of bytes: [UInt8]) throws(Problem) -> [Piece] {
        var pieces: [Piece] = []
        var index = 0
        var literalStart = 0
        while index < bytes.count {
            guard bytes[index] == dollar, index + 1 < bytes.count else {
                index += 1
                continue
            }
            let next = bytes[index + 1]
            if next == dollar {
                pieces.append(.literal(bytes[literalStart...index]))
                index += 2
                literalStart = index
                continue
            }
            guard next == openBrace else {
                index += 1
                continue
            }
            let body = index + 2
            guard let close = bytes[body...].firstIndex(of: closeBrace) else {
                let start = String(decoding: bytes[body...].prefix(40), as: UTF8.self)
                throw Problem(.unclosed, variable: start)
            }
            pieces.append(.literal(bytes[literalStart..<index]))
            pieces.append(try variable(bytes[body..<close]))
            index = close + 1
            literalStart = index
        }
        pieces.append(.literal(bytes[literalStart...]))
        return pieces
    }

    /// `NAME` or `NAME:-default`, the text between `${` and `}`.
    private static func variable(_ inside: ArraySlice<UInt8>) throws(Problem) -> Piece {
        var nameEnd = inside.endIndex
        var fallback: String?
        if let colon = inside.firstIndex(of: colon), colon + 1 < inside.endIndex, inside[colon + 1] == dash {
            nameEnd = colon
            fallback = String(decoding: inside[(colon + 2)...], as: UTF8.self)
        }
        let name = String(decoding: inside[..<nameEnd], as: UTF8.self)
        guard isName(name) else { throw Problem(.badName, variable: String(decoding: inside, as: UTF8.self)) }
        return .variable(name, fallback: fallback)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_")
    }

    private static let dollar = UInt8(ascii: "$")
    private static let openBrace = UInt8(ascii: "{")
    private static let closeBrace = UInt8(ascii: "}")
    private static let colon = UInt8(ascii: ":")
    private static let dash = UInt8(ascii: "-")
}
