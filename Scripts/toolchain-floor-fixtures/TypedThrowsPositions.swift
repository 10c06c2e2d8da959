enum E: Error { case failed }

// Where a typed-throws function type needs its runtime metadata: reported.
let operations: [() throws(E) -> Void] = []  // expect: typed-throws-generic
let named: [(String, @Sendable (Int) throws(E) -> Void)] = []  // expect: typed-throws-generic
let table: [String: () throws(E) -> Int] = [:]  // expect: typed-throws-generic
let wrapped: Array<() throws(E) -> Void> = []  // expect: typed-throws-generic
let maybe: (() throws(E) -> Void)? = nil  // expect: typed-throws-generic
let results = Result<() throws(E) -> Void, Never>.success { }  // expect: typed-throws-generic
let literal = [
  { () throws(E) in throw .failed },  // expect: typed-throws-generic
  { () throws(E) in },  // expect: typed-throws-generic
]
typealias Operation = () throws(E) -> Void
let aliased: [Operation] = []  // expect: typed-throws-generic
var optionalAlias: Operation? = nil  // expect: typed-throws-generic

struct Box<Value> {
  let make: () throws(E) -> Value  // expect: typed-throws-generic
  var check: (Value) throws(E) -> Bool  // expect: typed-throws-generic

  struct Inner {
    let run: () throws(E) -> Void  // expect: typed-throws-generic
  }
}

// Where it does not: left alone.
struct Plain {
  let run: () throws(E) -> Void
}

func map<T, Failure: Error>(_ body: (Int) throws(Failure) -> T) throws(Failure) -> [T] {
  try [1, 2].map { value throws(Failure) -> T in try body(value) }
}

func take(_ body: @Sendable (Int) throws(E) -> Void) throws(E) -> [Int] { [] }

func use() throws(E) {
  let local: () throws(E) -> Void = {}
  try local()
  let outcome = Result { () throws(E) in try local() }
  try [1].forEach { (value: Int) throws(E) in _ = value }
  let values: [Int] = try take { value throws(E) in }
}
