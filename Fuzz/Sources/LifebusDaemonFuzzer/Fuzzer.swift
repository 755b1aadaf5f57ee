/// libFuzzer entry point: one input is a script of peers talking to a fresh broker (see `FuzzScript`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    DaemonHarness.run(FuzzScript(UnsafeRawBufferPointer(start: data, count: size)))
    return 0
}
