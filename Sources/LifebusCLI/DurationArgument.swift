import ArgumentParser
import LifebusProtocol

/// A duration on the command line, written as `DurationText` reads it (`250ms`, `5s`, `2m`): `wait --timeout`,
/// `expect --within`, `ping --wait`, `subscribe --connect-timeout`, `clock advance`. A plain value.
///
/// Parsed by ArgumentParser, so anything else is its usage error, shown with the option's help (which gives an
/// example); a default is shown in the help as it is written.
struct DurationArgument: ExpressibleByArgument, Equatable {
    let duration: Duration

    init(_ duration: Duration) {
        self.duration = duration
    }

    init?(argument: String) {
        guard let duration = DurationText.parse(argument) else { return nil }
        self.duration = duration
    }

    var defaultValueDescription: String { DurationText.format(duration) }
}
