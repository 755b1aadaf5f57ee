/// Why `JSONParser` rejected a text, and where.
///
/// A plain value (`Sendable`). `kind` is an extensible struct (new kinds can be added without breaking callers
/// that switch on it with a default); `offset` is the byte offset in the input where the problem was found.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of problem. Compare with the static members (`error.kind == .tooDeep`).
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case unexpectedEnd
            case unexpectedCharacter
            case invalidNumber
            case numberNotFinite
            case invalidEscape
            case invalidSurrogate
            case invalidUTF8
            case controlCharacterInString
            case tooDeep
            case trailingData
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The text ended inside a value (or was empty).
        public static let unexpectedEnd = Kind(.unexpectedEnd)
        /// A byte that cannot start or continue a value here (includes a BOM and any byte >= 0x80 outside a string).
        public static let unexpectedCharacter = Kind(.unexpectedCharacter)
        /// A number that does not follow the JSON number grammar.
        public static let invalidNumber = Kind(.invalidNumber)
        /// A number whose value overflows to infinity (`1e400`).
        public static let numberNotFinite = Kind(.numberNotFinite)
        /// A backslash escape JSON does not define, or a malformed `\u` escape.
        public static let invalidEscape = Kind(.invalidEscape)
        /// A `\u` escape naming a lone or misordered UTF-16 surrogate.
        public static let invalidSurrogate = Kind(.invalidSurrogate)
        /// Bytes in a string that are not well-formed UTF-8 (overlong, surrogate, beyond U+10FFFF, truncated).
        public static let invalidUTF8 = Kind(.invalidUTF8)
        /// A raw control character (U+0000…U+001F) inside a string.
        public static let controlCharacterInString = Kind(.controlCharacterInString)
        /// Arrays and objects nested deeper than the parser's `maxDepth`.
        public static let tooDeep = Kind(.tooDeep)
        /// Something other than whitespace after the value.
        public static let trailingData = Kind(.trailingData)

        public var description: String {
            switch base {
            case .unexpectedEnd: return "unexpected end of input"
            case .unexpectedCharacter: return "unexpected character"
            case .invalidNumber: return "invalid number"
            case .numberNotFinite: return "number out of range"
            case .invalidEscape: return "invalid escape"
            case .invalidSurrogate: return "invalid surrogate escape"
            case .invalidUTF8: return "invalid UTF-8"
            case .controlCharacterInString: return "control character in string"
            case .tooDeep: return "nesting too deep"
            case .trailingData: return "trailing data after value"
            }
        }
    }

    public var kind: Kind
    /// Byte offset into the input where the problem was detected.
    public var offset: Int

    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String { "\(kind) at byte \(offset)" }
}
