import Glibc
import LifebusIO

/// Decides whether text for standard output is coloured, and paints it.
///
/// A plain value, decided once per command: colour only when standard output is a terminal and `NO_COLOR` is unset
/// (https://no-color.org). With colour off, `paint` returns its text unchanged, so output for pipes and files is
/// plain.
struct TerminalStyle: Equatable {
    /// ANSI SGR codes used by the CLI's tables.
    enum Colour: String {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case cyan = "36"
    }

    let colours: Bool

    /// The style for file descriptor 1 in this process.
    static var standardOutput: TerminalStyle {
        decide(isTerminal: isatty(1) == 1, environment: ProcessEnvironment.values(of: ["NO_COLOR"]))
    }

    /// Colour when the stream is a terminal and `NO_COLOR` is absent (any value, even empty, turns colour off).
    static func decide(isTerminal: Bool, environment: [String: String]) -> TerminalStyle {
        TerminalStyle(colours: isTerminal && environment["NO_COLOR"] == nil)
    }

    static let plain = TerminalStyle(colours: false)

    func paint(_ text: String, _ colour: Colour) -> String {
        colours ? "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m" : text
    }
}
