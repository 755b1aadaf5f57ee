import ArgumentParser
import LifebusExpectation
import LifebusLifecycle
import Testing

@testable import LifebusCLI

/// The closed and compound values of `wait`, `expect` and `fire --expect/--fail-on` are parsed by ArgumentParser from
/// their types: `--help` lists each value (derived from the vocabulary's `allCases`), and a wrong word is the parser's
/// usage error (exit 2) naming the word and the values allowed.
@Suite struct TypedValueTests {
    /// The help text with its line wrapping undone.
    static func help(_ command: any ParsableCommand.Type) -> String {
        LifebusCommand.helpMessage(for: command).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static let states = LifecycleState.allCases.map(\.rawValue)
    static let verdicts = Verdict.allCases.map(\.name)
    static let callbacks = LifecycleCallback.allCases.map(\.rawValue)

    @Test func theHelpListsEveryStateOutcomeAndCallback() {
        let sceneStates = SceneState.allCases.map(\.rawValue).filter { !Self.states.contains($0) }
        let waitStates = "(values: \((Self.states + sceneStates).joined(separator: ", ")))"
        #expect(Self.help(LifebusCommand.Wait.self).contains(waitStates))
        let expect = Self.help(LifebusCommand.Expect.self)
        #expect(expect.contains(waitStates))
        #expect(expect.contains("(values: \(Self.verdicts.joined(separator: ", ")))"))
        #expect(expect.contains("(values: \((Self.callbacks + ["none"]).joined(separator: ", ")))"))
        #expect(Self.help(LifebusCommand.Fire.Home.self).contains("(values: \(Self.verdicts.joined(separator: ", ")))"))
    }

    @Test(arguments: [
        (["wait", "com.x", "asleep"], "The value 'asleep' is invalid for '<state>'", states),
        (["wait", "com.x", "background|asleep"], "The value 'background|asleep' is invalid for '<state>'", states),
        (["wait", "com.x", "background||suspended"], "is invalid for '<state>'", states),
        (["expect", "com.x", "--state", "ok"], "The value 'ok' is invalid for '--state <state>'", states),
        (["expect", "com.x", "--outcome", "fine"], "The value 'fine' is invalid for '--outcome <outcome>'", verdicts),
        (["expect", "com.x", "--no-outcome", "late,slow"], "The value 'late,slow' is invalid for '--no-outcome",
         verdicts),
        (["expect", "com.x", "--callbacks", "didSleep"], "The value 'didSleep' is invalid for '--callbacks", callbacks),
        (["fire", "home", "--expect", "great"], "The value 'great' is invalid for '--expect <outcome>'", verdicts),
        (["fire", "home", "--fail-on", "watchdog,"], "The value 'watchdog,' is invalid for '--fail-on", verdicts),
    ])
    func aWrongWordIsAUsageErrorListingTheValues(arguments: [String], problem: String, values: [String]) {
        #expect(CLIUsage.exitStatus(of: arguments) == CLIExitStatus.usage.rawValue)
        let message = CLIUsage.message(of: arguments) ?? "parsed"
        #expect(message.contains(problem), "\(message)")
        #expect(values.allSatisfy { message.contains($0) }, "\(message)")
    }

    @Test func aDataMemberWithoutEqualsIsAUsageErrorNamingTheForm() {
        let message = CLIUsage.message(of: ["expect", "com.x", "--mark", "m", "--data-has", "items"]) ?? "parsed"
        #expect(message.contains("The value 'items' is invalid for '--data-has <key=value>'"), "\(message)")
    }

    @Test func everyValueParsesAsItselfInEveryOption() throws {
        for state in LifecycleState.allCases {
            let wait = try #require(try LifebusCommand.parseAsRoot(["wait", "com.x", state.rawValue])
                as? LifebusCommand.Wait)
            #expect(wait.states.lifecycle == [state])
        }
        for state in SceneState.allCases {
            let wait = try #require(try LifebusCommand.parseAsRoot(["wait", "com.x/1", state.rawValue])
                as? LifebusCommand.Wait)
            #expect(wait.states.scene == [state])
        }
        for verdict in Verdict.allCases {
            let expect = try #require(try LifebusCommand.parseAsRoot(["expect", "com.x", "--outcome", verdict.name])
                as? LifebusCommand.Expect)
            #expect(expect.expectation.outcome == verdict)
            let fire = try #require(try LifebusCommand.parseAsRoot(["fire", "home", "--expect", verdict.name])
                as? LifebusCommand.Fire.Home)
            #expect(fire.options.expect == verdict)
        }
        let all = Self.callbacks.joined(separator: ",")
        let expect = try #require(try LifebusCommand.parseAsRoot(["expect", "com.x", "--callbacks", all])
            as? LifebusCommand.Expect)
        #expect(expect.expectation.callbacks == LifecycleCallback.allCases)
    }

    @Test func compoundValuesKeepTheirParts() throws {
        let expect = try #require(try LifebusCommand.parseAsRoot([
            "expect", "com.x", "--callbacks", "none", "--state", "background,suspended", "--no-outcome",
            "watchdog|failed", "--mark", "m", "--data-has", "note=a=b", "--data-has", "empty=",
        ]) as? LifebusCommand.Expect)
        let expectation = expect.expectation
        #expect(expectation.callbacks == [])
        #expect(expectation.states == [.background, .suspended])
        #expect(expectation.forbiddenOutcomes == [.outcome(.watchdog), .failed])
        #expect(expectation.markData.map(\.key) == ["note", "empty"])
        #expect(expectation.markData.map(\.value) == ["a=b", ""])
    }

    @Test func subscribesBackgroundModesAreListedAndAnotherIsRefusedNamingThem() {
        let modes = AppFlags.knownBackgroundModes
        #expect(Self.help(LifebusCommand.Subscribe.self).contains("(values: \(modes.joined(separator: ", ")))"))
        let message = CLIUsage.message(of: ["subscribe", "--id", "com.x", "--background-mode", "audoi"]) ?? "parsed"
        #expect(message.contains("The value 'audoi' is invalid for '--background-mode <mode>'"), "\(message)")
        #expect(modes.allSatisfy { message.contains($0) }, "\(message)")
    }

    @Test(arguments: [
        ["--delay", "willTerminate"], ["--delay", "willSleep=7s"], ["--delay", "willTerminate=soon"],
        ["--on", "willTerminate="], ["--on", "=true"],
    ])
    func aWrongReactionIsAUsageErrorWhoseHelpNamesTheCallbacks(words: [String]) {
        let arguments = ["subscribe", "--id", "com.x"] + words
        #expect(CLIUsage.exitStatus(of: arguments) == CLIExitStatus.usage.rawValue)
        let message = CLIUsage.message(of: arguments) ?? "parsed"
        #expect(message.contains("The value '\(words[1])' is invalid for '\(words[0])"), "\(message)")
        // What the user sees under the error: the option's help, which for --delay names every callback.
        var shown = "parsed"
        do { _ = try LifebusCommand.parseAsRoot(arguments) } catch { shown = LifebusCommand.fullMessage(for: error) }
        let callbacks = LifecycleCallback.allCases.map(\.rawValue)
        #expect(callbacks.allSatisfy(shown.contains) || (words[0] == "--on" && shown.contains("as for --delay")),
                "\(shown)")
    }

    @Test func subscribesReactionsMakeItsPlanAndACallbackNamedTwiceIsRefused() throws {
        let subscribe = try #require(try LifebusCommand.parseAsRoot([
            "subscribe", "--id", "com.x", "--delay", "willTerminate=7s", "--on", "didEnterBackground=echo a=b",
            "--background-mode", "audio",
        ]) as? LifebusCommand.Subscribe)
        let plan = try subscribe.plan()
        #expect(plan.reactions == [.willTerminate: .delay(.seconds(7)), .didEnterBackground: .command("echo a=b")])
        #expect(subscribe.backgroundModes.map(\.name) == ["audio"])
        let twice = ["subscribe", "--id", "com.x", "--delay", "willTerminate=1s", "--on", "willTerminate=true"]
        #expect(CLIUsage.message(of: twice)?.contains("willTerminate has more than one --delay or --on") == true)
    }

    @Test func durationsParseAsDurationTextReadsThemAndShowTheirDefaults() throws {
        let wait = try #require(try LifebusCommand.parseAsRoot(["wait", "com.x", "active", "--timeout", "1m"])
            as? LifebusCommand.Wait)
        #expect(wait.timeout.duration == .seconds(60))
        #expect(Self.help(LifebusCommand.Wait.self).contains("(default: 30s)"))
        #expect(Self.help(LifebusCommand.Subscribe.self).contains("(default: 5s)"))
        let expect = try #require(try LifebusCommand.parseAsRoot(["expect", "com.x", "--outcome", "ok"])
            as? LifebusCommand.Expect)
        #expect(expect.within == nil)
        for arguments in [["ping", "--wait", "5"], ["expect", "com.x", "--state", "active", "--within", "a while"],
                          ["subscribe", "--id", "com.x", "--connect-timeout", "5x"], ["clock", "advance", "soon"]] {
            #expect(CLIUsage.exitStatus(of: arguments) == CLIExitStatus.usage.rawValue, "\(arguments)")
            let message = CLIUsage.message(of: arguments) ?? "parsed"
            #expect(message.contains("The value '\(arguments.last!)' is invalid"), "\(message)")
        }
    }

    @Test func clockAdvanceIsASubcommandTakingADurationAndTheGlobalsOnEitherSide() throws {
        let clock = try #require(try LifebusCommand.parseAsRoot(["clock", "--json"]) as? LifebusCommand.ClockCommand)
        #expect(clock.global.json)
        let advance = try #require(try LifebusCommand.parseAsRoot(["clock", "advance", "250ms", "--json"])
            as? LifebusCommand.ClockCommand.Advance)
        #expect(advance.duration.duration == .milliseconds(250))
        #expect(advance.global.json)
        let before = try #require(try LifebusCommand.parseAsRoot(["clock", "--json", "--socket", "/x", "advance", "5s"])
            as? LifebusCommand.ClockCommand.Advance)
        #expect(before.global.json && before.global.socket == "/x")
        #expect(CLIUsage.message(of: ["clock", "advance"])?.contains("Missing expected argument '<duration>'") == true)
        #expect(CLIUsage.exitStatus(of: ["clock", "later"]) == CLIExitStatus.usage.rawValue)
    }

    @Test func marksDataIsOneJSONObject() throws {
        let mark = try #require(try LifebusCommand.parseAsRoot(["mark", "saved", "--data", #"{"items":3}"#])
            as? LifebusCommand.Mark)
        #expect(mark.data?.object == ["items": 3])
        for data in ["[1]", "3", "{", ""] {
            let message = CLIUsage.message(of: ["mark", "saved", "--data", data]) ?? "parsed"
            #expect(message.contains("The value '\(data)' is invalid for '--data <json>'"), "\(message)")
        }
    }
}
