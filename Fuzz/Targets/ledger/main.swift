import StoredFormatFuzzing

/// libFuzzer's entry point for the `ledger` format (see Scripts/fuzz.sh).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoredFormat(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  StoredFormatFuzzTarget.run("ledger", data, size)
}
