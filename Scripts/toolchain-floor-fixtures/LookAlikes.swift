import Testing

// Each newer feature where the check must accept it. Nothing here is reported.

#if compiler(>=6.2)
@Test func exitTest() async {
  await #expect(processExitsWith: .failure) { fatalError() }
}
func `a raw identifier`() {}
#elseif compiler(>=6.1)
let error = #expect(throws: E.self) { try f() }
#else
@Test func olderPath() {}
#endif

#if compiler(>=6.3) && os(Linux)
func stop() throws { try Test.cancel("guarded twice") }
#endif

#if compiler(>=6.1)
#if os(macOS)
let nested = #expect(throws: E.self) { try f() }
#endif
#endif

// In comments: #expect(processExitsWith: .success), Test.cancel(), `raw name`, Mutex, f(a, b,).
/* Block comments too: Span<UInt8>, @concurrent, SharedStore::FileStore
   /* nested: InlineArray */ and after the nested one: nonisolated struct S {} */
let text = "Test.cancel() and #expect(processExitsWith:) and `raw name`, f(a,)"
let raw = #"a "quoted" Mutex and \(Test.cancel)"#
let block = """
  let x: [() throws(E) -> Void] = []
  f(a, b,)
  """
let empty = #""""#
let quote = #"""#
let interpolated = "value \(format(1, 2)) and Span<Int>"

if #available(macOS 15, iOS 18, watchOS 11, tvOS 18, *) {
  // toolchain-floor: allow(availability): guarded by #available on the line above
  let lock = Mutex(0)
  let big: Int128 = 1  // toolchain-floor: allow(availability): under #available
}
let span = interval.checkSpan(of: records)
let closure = { (a: Int, b: Int) -> Int in a + b }
let comparison = a < b && c > d
func f<T>(_ value: T) -> [T] where T: Equatable { [value] }
