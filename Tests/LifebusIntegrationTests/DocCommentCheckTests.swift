import Glibc
import LifebusIO
import Testing

/// `scripts/check-doc-comments`, which `scripts/docs` runs after DocC, on symbol graphs written here: it names each
/// public symbol without a doc comment and each function whose comment leaves out a parameter, the return value or
/// what it throws, passes a module whose public symbols are all documented, and leaves alone what is not the module's
/// own public API (internal symbols, compiler-synthesized members, another module's re-exported symbols).
@Suite struct DocCommentCheckTests {
    /// A symbol of the graph: its kind and name, and whichever of the other fields it has.
    static func symbol(
        _ kind: String, _ name: String, access: String = "public", file: String = "Mod/Mod.swift", line: Int? = 3,
        comment: [String]? = nil, parameters: [String] = [], returns: String = "()", throwing: Bool = false
    ) -> String {
        var fields = [
            #""kind": {"identifier": "\#(kind)"}"#, #""pathComponents": ["\#(name)"]"#, #""accessLevel": "\#(access)""#,
            #""declarationFragments": [{"kind": "keyword", "spelling": "\#(throwing ? "throws" : "func")"}]"#,
            #""functionSignature": {"parameters": [\#(names(parameters))], "#
                + #""returns": [{"kind": "text", "spelling": "\#(returns)"}]}"#,
        ]
        if let line {
            fields.append(
                #""location": {"uri": "file:///pkg/Sources/\#(file)", "position": {"line": \#(line), "character": 4}}"#)
        }
        if let comment {
            let lines = comment.map { #"{"text": "\#($0)"}"# }.joined(separator: ", ")
            fields.append(#""docComment": {"lines": [\#(lines)]}"#)
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// A function signature's parameters, as JSON objects.
    static func names(_ parameters: [String]) -> String {
        parameters.map { #"{"name": "\#($0)"}"# }.joined(separator: ", ")
    }

    /// Runs the check on a build folder whose one symbol graph, of module `Mod`, holds `symbols`.
    static func check(_ symbols: [String]) throws -> (status: Int32, out: String, err: String) {
        let build = makeTemporaryFolder("lifebus-doc-check")
        defer { FolderEntries.removeTree(build) }
        let folder = build + "/x86_64-unknown-linux-gnu/extracted-symbols/pkg/Mod"
        #expect(try ChildProcess("/bin/mkdir", ["-p", folder]).wait() == 0)
        let file = try #require(fopen(folder + "/Mod.symbols.json", "w"))
        fputs(#"{"symbols": ["# + symbols.joined(separator: ", ") + "]}", file)
        fclose(file)
        let script = "\(TranscriptReplayTests.repositoryRoot)/scripts/check-doc-comments"
        let child = try ChildProcess(HelperScripts.executable("python3"), [script, "--build-path", build, "Mod"])
        let out = child.stdout.readAll(timeout: .seconds(30))
        let err = child.stderr.readAll(timeout: .seconds(5))
        if child.isAlive { child.signal(SIGKILL) }
        return (child.wait(), out, err)
    }

    static let documented = symbol(
        "swift.method", "load(_:)",
        comment: ["Loads it.", "", "- Parameter name: The name.", "- Returns: The value.", "- Throws: Why not."],
        parameters: ["name"], returns: "Int", throwing: true)

    @Test func aModuleWhosePublicSymbolsAreAllDocumentedPasses() throws {
        let run = try Self.check([
            Self.documented,
            Self.symbol("swift.property", "count", comment: ["How many."]),
            Self.symbol("swift.init", "init(a:b:)", comment: ["Makes one.", "- Parameters:", "  - a: A.", "  - b: B."],
                        parameters: ["a", "b"]),
            Self.symbol("swift.func.op", "!=(_:_:)", line: nil, parameters: ["lhs", "rhs"], returns: "Bool"),
            Self.symbol("swift.func", "helper()", access: "internal"),
            Self.symbol("swift.enum.case", "answer", file: "Other/Re-exported.swift"),
        ])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        #expect(run.out.contains("every public symbol of Mod is documented"), "\(run.out)")
    }

    @Test func anUndocumentedSymbolAndAnIncompleteCommentAreNamed() throws {
        let run = try Self.check([
            Self.documented,
            Self.symbol("swift.property", "bare", line: 7),
            Self.symbol("swift.method", "save(_:to:)", line: 9, comment: ["Saves it."], parameters: ["value", "to"],
                        returns: "Bool", throwing: true),
        ])
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.err.split(separator: "\n").map(String.init) == [
            "/pkg/Sources/Mod/Mod.swift:8: Mod bare has no doc comment",
            "/pkg/Sources/Mod/Mod.swift:10: Mod save(_:to:): its doc comment lacks parameter `value`, parameter `to`, "
                + "`- Returns:`, `- Throws:`",
            "check-doc-comments: 2 public symbols not fully documented",
        ])
    }
}
