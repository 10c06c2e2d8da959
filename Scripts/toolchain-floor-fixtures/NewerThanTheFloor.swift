import Testing

@Suite struct NewerTesting {
  @Test func exitTest() async {
    await #expect(processExitsWith: .failure) { fatalError() }  // expect: exit-test
  }

  @Test func cancel() throws {
    try Test.cancel("not today")  // expect: test-cancel
  }

  @Test func thrown() throws {
    let error = #expect(throws: E.self) { try f() }  // expect: expect-throws-result
    let required = try #require(throws: E.self) { try f() }  // expect: expect-throws-result
    use(#expect(throws: E.self) { try f() })  // expect: expect-throws-result
    _ = #expect(throws: E.self) { try f() }
    #expect(throws: E.self) { try f() }
  }

  @Test func operands() throws {
    #expect(day == (try LocalDay("2026-03-08")))  // expect: expect-operand-try
    #expect(day == LocalDay?(try LocalDay("2026-03-08")))  // expect: expect-operand-try
    #expect(try day == (try LocalDay("2026-03-08")))  // expect: expect-operand-try
    try #require(count > (try limit()), "comment")  // expect: expect-operand-try
    #expect(text == "day \(try LocalDay("2026-03-08"))")  // expect: expect-operand-try
    #expect(try day == LocalDay("2026-03-08"))
    #expect(days.contains(try LocalDay("2026-03-08")))
    #expect(day == (try? LocalDay("2026-03-08")))
    #expect(days.allSatisfy { try $0 == LocalDay("2026-03-08") } == true)
    let same = day == (try LocalDay("2026-03-08"))
  }

  @Test(arguments: [1, 2, 3].filter { $0 > 1 })  // expect: attribute-closure
  func filtered(value: Int) {}

  @Test("a name with { braces }", arguments: Self.values)
  func named(value: Int) {}

  @Test func severity() {
    Issue.record("odd", severity: .warning)  // expect: issue-severity
  }

  @Test func attachments() {
    Attachment.record("text")  // expect: attachment
    let format = AttachableImageFormat.png  // expect: image-attachment
  }

  @Test func ranges() async {
    await confirmation(expectedCount: 1...) { _ in }  // expect: confirmation-range
    await confirmation(expectedCount: 2) { _ in }
  }
}

struct Scope: TestScoping {}  // expect: test-scoping
let handler = IssueHandlingTrait.filterIssues { _ in true }  // expect: issue-handling-trait
extension Thing: CustomTestReflectable {}  // expect: test-reflectable

func call() {
  f(
    1,
    2,  // expect: trailing-comma
  )
  let array = [
    1,
    2,
  ]
}

nonisolated struct Loose {}  // expect: nonisolated-type
nonisolated(unsafe) var shared = 0
func groups() async {
  await withTaskGroup { group in }  // expect: task-group-inference
  await withTaskGroup(of: Void.self) { group in }
  await withThrowingTaskGroup(returning: Int.self) { group in 0 }  // expect: task-group-inference
}
func `a raw identifier`() {}  // expect: raw-identifier
func `default`() {}
@concurrent func work() async {}  // expect: concurrent-attribute
nonisolated(nonsending) func inherit() async {}  // expect: nonisolated-nonsending
actor A { isolated deinit {} }  // expect: isolated-deinit
extension Model: @MainActor Equatable {}  // expect: isolated-conformance
struct Vector<let count: Int> {}  // expect: value-generics
let small: InlineArray<4, Int> = [1, 2, 3, 4]  // expect: inline-array
let sugar: [4 of Int] = [1, 2, 3, 4]  // expect: inline-array
func view(_ span: Span<UInt8>) {}  // expect: span
struct View: ~Escapable {}  // expect: lifetimes
let unchecked = unsafe pointer.pointee  // expect: memory-safety
@abi(func old()) func new() {}  // expect: abi-attribute
let task = Task.immediate { 1 }  // expect: task-naming
let named = Task(name: "worker") { 1 }  // expect: task-naming
let store = SharedStore::FileStore.self  // expect: module-selector
@c func exported() {}  // expect: c-attribute
@inline(always) func hot() {}  // expect: c-attribute
let lock = Mutex(0)  // expect: availability
let big: Int128 = 1  // expect: availability
let total = duration.attoseconds  // expect: availability
let part = duration.components.attoseconds
