import ArgumentParser
import LifebusLifecycle

/// `lifebus subscribe --background-mode`: a `UIBackgroundModes` entry iOS knows (`AppFlags.knownBackgroundModes`,
/// the one list), so `--help` lists them and ArgumentParser refuses another naming them. A plain value.
struct BackgroundModeChoice: ExpressibleByArgument, Equatable {
    let name: String

    init?(argument: String) {
        guard AppFlags.knownBackgroundModes.contains(argument) else { return nil }
        name = argument
    }

    static var allValueStrings: [String] { AppFlags.knownBackgroundModes }
}
