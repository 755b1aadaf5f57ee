/// Finds the first YAML anchor (`&NAME`) or alias (`*NAME`) in a scenario file's text before any tree is built:
/// Yams copies an aliased node into every place that names it, so nine lines of aliases of aliases (a "billion
/// laughs") expand to 9⁹ nodes, gigabytes, before the parser could refuse them. Scenario files need neither, so the
/// parser refuses both here, at their `LINE:COLUMN`, in one pass over the bytes and no memory beyond them.
///
/// A token scanner, not a YAML parser: it follows what decides where a node may start — indentation, the block
/// indicators `- `, `? `, `: `, flow brackets and commas, tags, quoted scalars (which may span lines), comments,
/// block scalars (`|`, `>`) and plain scalars continued on more-indented lines (both: text) — and reports `&` or `*`
/// where a node starts, the one place YAML reads them as anchor or alias (inside a scalar they are text). Stateless.
enum YAMLAliasScan {
    /// Where the first anchor or alias is, 1-based, and which; `nil` when the text has none.
    struct Finding: Equatable {
        let line: Int
        let column: Int
        let isAnchor: Bool
    }

    static func first(in text: String) -> Finding? {
        var scanner = Scanner(bytes: Array(text.utf8))
        return scanner.run()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var lineStart = 0
        /// Inside `[` / `{`: commas start nodes and `:` needs no space after it.
        var flowDepth = 0
        /// A node may start at the next non-blank byte.
        var nodeStart = true
        /// Inside a block scalar, or after a plain scalar that ended a block line: lines indented more than this
        /// (and blank lines) are its text.
        var textParent: Int?
        /// Where the last plain scalar of this line started, if it was the line's last token.
        var plainStart: Int?

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        var column: Int { index - lineStart + 1 }

        func byte(at offset: Int) -> UInt8? {
            offset < bytes.count ? bytes[offset] : nil
        }

        /// Whether the byte at `offset` ends a token: a blank, a line break, or the end.
        func isBreakOrBlank(_ offset: Int) -> Bool {
            guard let byte = byte(at: offset) else { return true }
            return byte == .space || byte == .tab || byte == .newline || byte == .carriageReturn
        }

        mutating func newLine() {
            if let start = plainStart, flowDepth == 0 { textParent = parentIndent(nodeAt: start) }
            plainStart = nil
            index += 1
            line += 1
            lineStart = index
            if flowDepth == 0 { nodeStart = true }
        }

        mutating func run() -> Finding? {
            while index < bytes.count {
                if index == lineStart, skipTextLine() { continue }
                let byte = bytes[index]
                switch byte {
                case .newline:
                    newLine()
                case .space, .tab, .carriageReturn:
                    index += 1
                case UInt8(ascii: "#") where index == lineStart || isBreakOrBlank(index - 1):
                    while index < bytes.count, bytes[index] != .newline { index += 1 }
                case UInt8(ascii: "-") where index == lineStart && bytes[index...].starts(with: "---".utf8)
                    && isBreakOrBlank(index + 3):
                    index += 3  // a document start: its node may follow on the line
                    nodeStart = true
                    plainStart = nil
                case UInt8(ascii: "&"), UInt8(ascii: "*"):
                    if nodeStart { return Finding(line: line, column: column, isAnchor: byte == UInt8(ascii: "&")) }
                    skipPlain()
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    if nodeStart {
                        plainStart = nil
                        skipQuoted(byte)
                    } else {
                        skipPlain()
                    }
                    nodeStart = false
                case UInt8(ascii: "-") where nodeStart && isBreakOrBlank(index + 1),
                     UInt8(ascii: "?") where nodeStart && isBreakOrBlank(index + 1):
                    index += 1
                    plainStart = nil
                case UInt8(ascii: ":") where isBreakOrBlank(index + 1) || flowDepth > 0:
                    index += 1
                    nodeStart = true
                    plainStart = nil
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    flowDepth += 1
                    index += 1
                    nodeStart = true
                    plainStart = nil
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    flowDepth = max(0, flowDepth - 1)
                    index += 1
                    nodeStart = false
                    plainStart = nil
                case UInt8(ascii: ","):
                    index += 1
                    nodeStart = flowDepth > 0
                    plainStart = nil
                case UInt8(ascii: "!") where nodeStart:
                    skipToken()  // a tag: the node (and its properties) follow it
                    plainStart = nil
                case UInt8(ascii: "|") where nodeStart && flowDepth == 0,
                     UInt8(ascii: ">") where nodeStart && flowDepth == 0:
                    plainStart = nil
                    textParent = parentIndent(nodeAt: index)
                    while index < bytes.count, bytes[index] != .newline { index += 1 }
                default:
                    skipPlain()
                }
            }
            return nil
        }

        /// The indentation the text of a scalar starting at `node` on this line must exceed on the next lines: the
        /// column (0-based) where this line's content starts after its `- ` entries, or the line's indentation when
        /// the scalar is itself such an entry.
        func parentIndent(nodeAt node: Int) -> Int {
            var offset = lineStart
            while byte(at: offset) == .space { offset += 1 }
            let indentation = offset - lineStart
            while byte(at: offset) == UInt8(ascii: "-"), isBreakOrBlank(offset + 1) {
                offset += 1
                while byte(at: offset) == .space { offset += 1 }
            }
            return offset == node ? indentation : offset - lineStart
        }

        /// At a line's start after a block scalar's header or a plain scalar: skips the line when it is the
        /// scalar's text (blank, or indented more than its parent; a comment line ends a plain scalar).
        mutating func skipTextLine() -> Bool {
            guard let parent = textParent else { return false }
            var offset = index
            while byte(at: offset) == .space { offset += 1 }
            let blank = byte(at: offset) == nil || byte(at: offset) == .newline || byte(at: offset) == .carriageReturn
            guard blank || (offset - lineStart > parent && byte(at: offset) != UInt8(ascii: "#")) else {
                textParent = nil
                return false
            }
            while index < bytes.count, bytes[index] != .newline { index += 1 }
            if index < bytes.count { newLine() }
            return true
        }

        /// A quoted scalar, across lines: `\` escapes in double quotes, `''` in single ones.
        mutating func skipQuoted(_ quote: UInt8) {
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == .newline {
                    index += 1
                    line += 1
                    lineStart = index
                } else if quote == UInt8(ascii: "\"") && byte == UInt8(ascii: "\\") {
                    index += 2
                } else if byte == quote {
                    index += 1
                    guard quote == UInt8(ascii: "'"), self.byte(at: index) == quote else { return }
                    index += 1
                } else {
                    index += 1
                }
            }
        }

        /// A plain scalar's bytes up to the next blank, line break, or (in flow) bracket or comma; a `: ` inside
        /// it is left for the main loop.
        mutating func skipPlain() {
            nodeStart = false
            plainStart = plainStart ?? index
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == .space || byte == .tab || byte == .newline || byte == .carriageReturn { return }
                if byte == UInt8(ascii: ":") && (isBreakOrBlank(index + 1) || flowDepth > 0) { return }
                if flowDepth > 0 && (byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]")
                    || byte == UInt8(ascii: "}")) { return }
                index += 1
            }
        }

        /// A token up to the next blank or line break (a tag), leaving `nodeStart` as it was.
        mutating func skipToken() {
            while index < bytes.count, !isBreakOrBlank(index) { index += 1 }
        }
    }
}

extension UInt8 {
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let tab = UInt8(ascii: "\t")
    fileprivate static let newline = UInt8(ascii: "\n")
    fileprivate static let carriageReturn = UInt8(ascii: "\r")
}
