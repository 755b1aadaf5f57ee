@testable import LifebusScenario
import Testing

/// Anchors and aliases are found where a node starts, before Yams builds (and expands) a tree; the same characters
/// inside scalars, comments and block text are text.
@Suite struct YAMLAliasScanTests {
    typealias Finding = YAMLAliasScan.Finding

    @Test(arguments: [
        ("a: &a [\"x\"]\nb: [*a]\n", Finding(line: 1, column: 4, isAnchor: true)),
        ("steps: *all\n", Finding(line: 1, column: 8, isAnchor: false)),
        ("steps:\n  - note: &n \"a\"\n", Finding(line: 2, column: 11, isAnchor: true)),
        ("steps:\n  - *step\n", Finding(line: 2, column: 5, isAnchor: false)),
        ("data: [1, 2, *x]\n", Finding(line: 1, column: 14, isAnchor: false)),
        ("data: {k: *x}\n", Finding(line: 1, column: 11, isAnchor: false)),
        ("data:\n  ? *x\n  : 1\n", Finding(line: 2, column: 5, isAnchor: false)),
        ("--- &doc\nname: x\n", Finding(line: 1, column: 5, isAnchor: true)),
        ("name: x\nsteps: !!seq &s []\n", Finding(line: 2, column: 14, isAnchor: true)),
        ("description: |\n  * text\nsteps: *s\n", Finding(line: 3, column: 8, isAnchor: false)),
        ("note: \"a\n  b\"\nx: *y\n", Finding(line: 3, column: 4, isAnchor: false)),
        ("<<: *base\n", Finding(line: 1, column: 5, isAnchor: false)),
    ])
    func anchorsAndAliasesAreFoundWhereTheyAre(text: String, expected: Finding) {
        #expect(YAMLAliasScan.first(in: text) == expected)
    }

    @Test(arguments: [
        "note: a & b * c\n",
        "note: a*b&c\n",
        "note: \"*quoted &text\"\n",
        "note: 'it''s *single &quoted'\n",
        "note: \"escaped \\\" *still inside\"\n",
        "# *a comment &too\nname: x # *trailing\n",
        "description: |\n  * a bullet\n  & an ampersand\n\n  *after a blank line\nname: x\n",
        "steps:\n  - note: >-\n      *folded\n  - note: ok\n",
        "description: a plain scalar\n  * continued on a bullet line\nname: x\n",
        "steps:\n  - fire: \"call --answer\"\n  - expect: {app: com.example.A, state: background|suspended}\n",
        "data: [a*, \"b*\", c&d]\n",
        "url: http://x/*y\n",
    ])
    func theSameCharactersInsideScalarsAndCommentsAreText(text: String) {
        #expect(YAMLAliasScan.first(in: text) == nil)
    }
}
