import LifebusJSON
import LifebusProtocol
import Testing

/// `${VAR}` expansion in manifests (`Protocol/README.md` §16.1): examples of each rule and each refusal, then
/// properties over random text and environments (seeded, so a failure repeats).
@Suite struct ManifestVariablesTests {
    private static let environment = ["PORT": "6391", "DIR": "/var/lib/x", "EMPTY": "", "_A1": "a"]

    private func expand(_ text: String) throws(ManifestVariables.Problem) -> String {
        try ManifestVariables.expand(text) { Self.environment[$0] }
    }

    @Test(arguments: [
        ("redis-cli -p ${PORT} save", "redis-cli -p 6391 save"),
        ("${DIR}/dump.rdb", "/var/lib/x/dump.rdb"),
        ("${MISSING:-6390}", "6390"),
        ("${PORT:-6390}", "6391"),
        ("[${EMPTY:-default}]", "[]"),
        ("${MISSING:-}", ""),
        ("${MISSING:-a:-b}", "a:-b"),
        ("${_A1}${_A1}", "aa"),
        ("cost: $$5", "cost: $5"),
        ("$${PORT}", "${PORT}"),
        ("$$$${PORT}", "$${PORT}"),
        ("$HOME and $1 stay", "$HOME and $1 stay"),
        ("ends with $", "ends with $"),
        ("{PORT}", "{PORT}"),
        ("é ${PORT} ü", "é 6391 ü"),
    ])
    func eachFormExpandsAsDocumented(text: String, expanded: String) throws {
        #expect(try expand(text) == expanded)
    }

    @Test(arguments: [
        ("${MISSING}", ManifestVariables.Problem(.unset, variable: "MISSING")),
        ("a ${PORT", ManifestVariables.Problem(.unclosed, variable: "PORT")),
        ("${}", ManifestVariables.Problem(.badName, variable: "")),
        ("${1PORT}", ManifestVariables.Problem(.badName, variable: "1PORT")),
        ("${PO RT}", ManifestVariables.Problem(.badName, variable: "PO RT")),
        ("${PORT:6390}", ManifestVariables.Problem(.badName, variable: "PORT:6390")),
        ("${:-x}", ManifestVariables.Problem(.badName, variable: ":-x")),
        ("${PORT} ${NOPE}", ManifestVariables.Problem(.unset, variable: "NOPE")),
    ])
    func eachFaultIsRefusedNamingTheVariable(text: String, problem: ManifestVariables.Problem) {
        let error = #expect(throws: ManifestVariables.Problem.self) { try expand(text) }
        #expect(error == problem)
        #expect(error?.description.contains("\(problem.variable)\"") == true, "\(String(describing: error))")
    }

    @Test func theNamesAreThoseReferredToEachOnceInOrder() {
        #expect(ManifestVariables.names(in: "${B} $$ ${A:-x} $${C} ${B} $D ${1E} ${F") == ["B", "A"])
        #expect(ManifestVariables.names(in: "no variables") == [])
    }

    // MARK: properties

    @Test func textWithoutADollarIsLeftAsItIs() throws {
        var rng = SplitMix(seed: 1)
        for _ in 0..<500 {
            let text = Self.randomText(&rng, alphabet: ["a", "{", "}", ":", "-", " ", "é", "_", "1"])
            #expect(try ManifestVariables.expand(text) { _ in "never" } == text)
        }
    }

    @Test func aDefaultIsUsedExactlyWhenTheVariableIsUnset() throws {
        var rng = SplitMix(seed: 2)
        for _ in 0..<500 {
            let name = Self.randomName(&rng)
            let fallback = Self.randomText(&rng, alphabet: ["x", " ", "$", ":", "-", "/"])
            let value: String? = Bool.random(using: &rng) ? Self.randomText(&rng, alphabet: ["v", "$", "{", "}"]) : nil
            let expanded = try ManifestVariables.expand("${\(name):-\(fallback)}") { $0 == name ? value : nil }
            #expect(expanded == (value ?? fallback), "\(name) = \(String(describing: value)), default \(fallback)")
        }
    }

    @Test func escapingEveryDollarGivesTheTextBack() throws {
        var rng = SplitMix(seed: 3)
        for _ in 0..<500 {
            let text = Self.randomText(&rng, alphabet: ["$", "{", "}", "A", ":", "-", " "])
            let escaped = text.replacing("$", with: "$$")
            #expect(try ManifestVariables.expand(escaped) { _ in nil } == text, "\(escaped)")
        }
    }

    @Test func expansionIsConcatenationOfItsPieces() throws {
        var rng = SplitMix(seed: 4)
        let pieces = ["${PORT}", "${MISSING:-d}", "$$", "plain", " ", "$x", "${DIR}"]
        for _ in 0..<500 {
            let chosen = (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }
            let whole = try expand(chosen.joined())
            var joined = ""
            for piece in chosen { joined += try expand(piece) }
            #expect(whole == joined, "\(chosen)")
        }
    }

    @Test func everyNameReferredToIsOneTheExpansionLooksUp() throws {
        var rng = SplitMix(seed: 5)
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...5, using: &rng)).map { _ in
                Bool.random(using: &rng) ? "${\(Self.randomName(&rng))}" : "$$ x "
            }.joined()
            var asked: [String] = []
            _ = try ManifestVariables.expand(text) { name in
                if !asked.contains(name) { asked.append(name) }
                return "v"
            }
            #expect(ManifestVariables.names(in: text) == asked, "\(text)")
        }
    }

    // MARK: what a client sends

    @Test func aClientSendsOnlyTheVariablesTheManifestNamesAndPathForABareExecutable() {
        let manifest = #"{"id": "r", "executable": "redis-server", "arguments": ["--dir", "${DIR}", "${UNSET:-x}"]}"#
        let environment = ["DIR": "/d", "SECRET": "s", "PATH": "/usr/bin:/bin", "HOME": "/root"]
        let params = InstallParams.file("/m/r.json", text: Array(manifest.utf8), environment: environment)
        #expect(params["path"] == .string("/m/r.json"))
        #expect(params["environment"] == .object(["DIR": "/d", "PATH": "/usr/bin:/bin"]))
    }

    @Test func aClientSendsNoPathForAnExecutableWithASlash() {
        let manifest = #"{"id": "r", "executable": "${BIN:-bin}/server"}"#
        let params = InstallParams.file("/m/r.json", text: Array(manifest.utf8), environment: ["PATH": "/bin"])
        #expect(params == ["path": .string("/m/r.json")])
        let unread = InstallParams.file("/m/r.json", text: nil, environment: ["PATH": "/bin"])
        #expect(unread == ["path": .string("/m/r.json")])
    }

    private static func randomName(_ rng: inout SplitMix) -> String {
        let first = Array("ABCxyz_")
        let rest = Array("ABCxyz_019")
        return String(first.randomElement(using: &rng)!)
            + String((0..<Int.random(in: 0...6, using: &rng)).map { _ in rest.randomElement(using: &rng)! })
    }

    private static func randomText(_ rng: inout SplitMix, alphabet: [String]) -> String {
        (0..<Int.random(in: 0...20, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined()
    }
}

/// A seeded generator, so a failing random case repeats.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
