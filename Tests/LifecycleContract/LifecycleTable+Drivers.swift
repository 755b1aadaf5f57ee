/// Which test runs each row of `Protocol/lifecycle.md`: the kit (`LifebusTestingTests.LifecycleRowsTests`, in memory
/// and on the live broker) runs the rows of `kitRowIDs`; the two row drivers — the core's `Harness`
/// (`LifebusCoreTests.LifecycleTableTests`) and the integration `RowRunner`
/// (`LifebusIntegrationTests.LifecycleRowEndToEndTests`) — run the others (`driverRows`). A row moves from the
/// drivers to the kit by adding its id here; `RowCoverageTests` checks that every row is run by exactly one side.
extension LifecycleTable {
    /// The rows the kit can say with its verbs alone: apps that connect and answer (at once, or held until
    /// released), fired events (refused ones too; without waiting while an app is held), time passing, crashes —
    /// and no `start`, `kill` or `expiring` line expected (`LifecycleRowsTests` plays its apps in the test's
    /// process, which a live broker can neither kill nor start; the scene rows' `SceneRowsTests` installs such apps
    /// instead). R73 (a second hello with a connected app's id) is left out: the kit's `launch` refuses it before
    /// the broker sees it.
    package static let kitRowIDs: Set<String> = [
        "R01", "R02", "R03", "R04", "R05", "R07", "R08", "R09",
        "R10", "R11", "R12", "R13", "R14", "R15", "R16", "R17", "R18", "R19",
        "R20", "R21", "R22", "R23", "R24", "R25", "R26", "R27", "R28", "R29",
        "R30", "R31", "R32", "R33", "R35",
        "R41", "R43", "R44", "R46",
        "R50", "R53", "R54",
        "R61", "R63", "R64", "R65",
        "R70", "R71", "R72", "R74",
        "R80", "R81",
    ]

    /// The rows the kit runs, in the table's order.
    package static let kitRows: [Row] = all.filter { kitRowIDs.contains($0.id) }

    /// The rows only the drivers can run, in the table's order: those expecting process starts, kills or
    /// background-task expirations, or needing an app that lingers after `willTerminate`, cannot be spawned, begins
    /// or ends a background task, reports a footprint or answers what it was not asked; and R73.
    package static let driverRows: [Row] = all.filter { !kitRowIDs.contains($0.id) }
}
