import Glibc
import LifebusLifecycle
import LifebusProtocol

/// The command line every SDK app understands, parsed without Foundation: `--socket PATH`, `--state-file PATH`,
/// `--exits-on-suspend`, `--background-mode MODE` (repeatable), `--launch-in-background` (each `--name=value` too).
///
/// A plain value. Arguments it does not know are kept, in order, in `remaining` for the app to read.
public struct LaunchArguments: Sendable, Equatable {
    /// Why the command line was refused.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// `--socket PATH`: the broker's socket; `nil` when not given.
    public var socketPath: String?
    /// `--state-file PATH`: where the app saves and restores its state; `nil` when not given.
    public var stateFile: String?
    /// `--exits-on-suspend`: declare `UIApplicationExitsOnSuspend`.
    public var exitsOnSuspend = false
    /// `--background-mode MODE`, each time it is given: the `UIBackgroundModes` to declare.
    public var backgroundModes: [String] = []
    /// `--launch-in-background`: launch straight into the background.
    public var launchInBackground = false
    /// Arguments not recognised here.
    public var remaining: [String] = []

    /// Parses `arguments` (without the program name: pass `CommandLine.arguments.dropFirst()`).
    ///
    /// - Parameter arguments: The arguments to parse.
    /// - Throws: ``LaunchArguments/Failure`` for an unknown background mode, an option without its value, or a value
    ///   given to a flag.
    public init(parsing arguments: some Sequence<String>) throws(Failure) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            let (name, inlineValue) = Self.split(argument)
            switch name {
            case "--socket":
                socketPath = try Self.value(for: name, inlineValue, &iterator)
            case "--state-file":
                stateFile = try Self.value(for: name, inlineValue, &iterator)
            case "--background-mode":
                let mode = try Self.value(for: name, inlineValue, &iterator)
                guard AppFlags.knownBackgroundModes.contains(mode) else {
                    throw Failure(description: "--background-mode \(mode) is not a background mode; use one of "
                        + AppFlags.knownBackgroundModes.joined(separator: ", "))
                }
                backgroundModes.append(mode)
            case "--exits-on-suspend", "--launch-in-background":
                guard inlineValue == nil else { throw Failure(description: "\(name) takes no value") }
                if name == "--exits-on-suspend" { exitsOnSuspend = true } else { launchInBackground = true }
            default:
                remaining.append(argument)
            }
        }
    }

    /// The `ApplicationOptions` these arguments ask for.
    public var options: ApplicationOptions {
        ApplicationOptions(
            socketPath: socketPath,
            exitsOnSuspend: exitsOnSuspend,
            backgroundModes: backgroundModes,
            launchInBackground: launchInBackground
        )
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func value(
        for name: String,
        _ inlineValue: String?,
        _ iterator: inout some IteratorProtocol<String>
    ) throws(Failure) -> String {
        guard let value = inlineValue ?? iterator.next(), !value.isEmpty else {
            throw Failure(description: "\(name) needs a value")
        }
        return value
    }
}

extension LaunchArguments {
    /// The usage line of an SDK app called `program`.
    ///
    /// - Parameter program: The program's name, as the line shows it.
    /// - Returns: The usage line, without a newline.
    public static func usage(program: String) -> String {
        "usage: \(program) [--socket PATH] [--state-file PATH] [--exits-on-suspend] [--background-mode MODE]... "
            + "[--launch-in-background]"
    }

    /// Parses the process's own command line; on a mistake (or, unless `allowingUnknown`, an unknown argument)
    /// prints `program: problem` to stderr and exits with status 2, the usual usage-error status. `-h`/`--help`
    /// prints the usage and what the options mean to stdout and exits 0.
    ///
    /// - Parameters:
    ///   - program: The program's name, for the usage line and the error message.
    ///   - allowingUnknown: Whether arguments it does not know are kept in ``LaunchArguments/remaining`` rather than
    ///     refused; `false` by default.
    /// - Returns: The parsed arguments (it exits the process instead of returning on a mistake or `--help`).
    public static func commandLine(program: String, allowingUnknown: Bool = false) -> LaunchArguments {
        if CommandLine.arguments.dropFirst().contains(where: { $0 == "-h" || $0 == "--help" }) {
            print("""
                \(usage(program: program))

                A Lifebus app: connects to the broker (lifebusd) and lives through the iOS app lifecycle.
                  --socket PATH            the broker's socket (default: $LIFEBUS_SOCKET, $XDG_RUNTIME_DIR/lifebus.sock,
                                           /tmp/lifebus-$UID.sock)
                  --state-file PATH        where the app saves and restores its state
                  --exits-on-suspend       declare UIApplicationExitsOnSuspend (terminated instead of suspended)
                  --background-mode MODE   declare a UIBackgroundModes entry, e.g. audio (repeatable)
                  --launch-in-background   launch straight into the background
                """)
            exit(0)
        }
        do throws(Failure) {
            let arguments = try LaunchArguments(parsing: CommandLine.arguments.dropFirst())
            if !allowingUnknown, let unknown = arguments.remaining.first {
                throw Failure(description: "unknown argument \(unknown)")
            }
            return arguments
        } catch {
            let line = "\(program): \(error)\n\(usage(program: program))\n"
            _ = line.utf8CString.withUnsafeBytes { write(2, $0.baseAddress, $0.count - 1) }
            exit(2)
        }
    }
}
