import Foundation

/// The formats that ScreenTimeKit keeps in a shared folder, each fuzzed as the bytes of one
/// file of a `FileStore` and driven through the public API that reads and writes it.
///
/// The in-test loop (`StoredFuzz`) and the libFuzzer targets under `Fuzz/` drive the same
/// ``StoredFormatHarness``:
///
/// ```swift
/// let harness = try StoredFormatHarness(.heartbeats)
/// let accepted = try harness.run(bytes)  // throws StoredFormatViolation
/// ```
package enum StoredFormat: String, CaseIterable, Sendable, CustomStringConvertible {
  /// A value file: the 32-byte header and a payload (`FileStore.read`, `write`, `update`,
  /// `changeToken`, a typed value).
  case valueFile = "value-file"
  /// A log file: the 56-byte header and COBS frames (`readLog`, `appendToLog`, `compactLog`).
  case logFile = "log-file"
  /// The records of a `SequencedOutbox` (`head`, `drain`, `publish`, an `OutboxConsumer`).
  case outbox
  /// The records of a heartbeat history (`HeartbeatRecorder.latest`, `history`, `record`).
  case heartbeats
  /// The records of a `BoundedLog` of diagnostic entries (`DiagnosticLog`, `BoundedLog`).
  case diagnosticLog = "diagnostic-log"
  /// The record of an `OutboxConsumer`: its cursor and state, kept as versions in a log
  /// (`record`, `drain`, `skip`).
  case consumerRecord = "consumer-record"
  /// The state of a `UsagePipeline`, kept as versions in a log (`state`, `wake`, `dashboard`).
  case pipelineState = "pipeline-state"
  /// A `RewardLedger` kept as a typed value.
  case ledger
  /// A `ThresholdAccountant` kept as a typed value.
  case accountant
  /// A `SequenceTracker` kept as a typed value.
  case sequenceTracker = "sequence-tracker"

  /// The format's name, as `Scripts/fuzz.sh` names its target.
  package var description: String { rawValue }

  /// Whether the planted file is an append-only log (otherwise a value file).
  package var isLog: Bool {
    switch self {
    // A consumer's record, the pipeline's state among them, is kept as versions: a log.
    case .logFile, .outbox, .heartbeats, .diagnosticLog, .consumerRecord, .pipelineState:
      return true
    default: return false
    }
  }
}

/// A format's way through the API: the key it plants, the valid files beside it, its seeds and
/// the operations run on each input.
protocol StoredFormatDriver: AnyObject {
  /// The key whose file each input is planted as.
  var key: String { get }
  /// Valid files of other keys, planted beside each input (bytes by key).
  var companions: [String: [UInt8]] { get }
  /// Valid files of the format, written through the API or the format's helpers.
  var seeds: [[UInt8]] { get }
  /// Runs the operations on the planted input; returns whether its main read accepted it.
  func exercise(_ probe: StoredFormatProbe) throws(StoredFormatViolation) -> Bool
}

/// Plants inputs of one format in a sandbox and drives the API over them.
package final class StoredFormatHarness {
  /// The format.
  package let format: StoredFormat
  let sandbox: StoredFormatSandbox
  private let driver: any StoredFormatDriver
  private let companions: [String: [UInt8]]

  /// Creates a sandbox for `format` and writes its seeds.
  ///
  /// - Parameter format: The format to fuzz.
  /// - Throws: When the sandbox cannot be created or a seed cannot be written.
  package init(_ format: StoredFormat) throws {
    self.format = format
    sandbox = try StoredFormatSandbox(name: format.rawValue)
    switch format {
    case .valueFile: driver = try ValueFileDriver(sandbox)
    case .logFile: driver = try LogFileDriver(sandbox)
    case .outbox: driver = try OutboxDriver(sandbox)
    case .heartbeats: driver = try HeartbeatsDriver(sandbox)
    case .diagnosticLog: driver = try DiagnosticLogDriver(sandbox)
    case .consumerRecord: driver = try ConsumerRecordDriver(sandbox)
    case .pipelineState: driver = try PipelineStateDriver(sandbox)
    case .ledger: driver = try LedgerDriver(sandbox)
    case .accountant: driver = try AccountantDriver(sandbox)
    case .sequenceTracker: driver = try SequenceTrackerDriver(sandbox)
    }
    var companions: [String: [UInt8]] = [:]
    for (key, bytes) in driver.companions { companions[StoredBytes.fileName(forKey: key)] = bytes }
    self.companions = companions
  }

  /// The key whose file each input is planted as.
  package var key: String { driver.key }

  /// Valid files of the format: the seeds of a mutation loop or a fuzzer's corpus.
  package var seeds: [[UInt8]] { driver.seeds }

  /// Plants `file` as the key's file, beside the format's valid companions, and runs the API
  /// over it.
  ///
  /// - Parameter file: The bytes of the file.
  /// - Returns: Whether the format's main read accepted the file.
  /// - Throws: ``StoredFormatViolation`` when a property breaks.
  package func run(_ file: [UInt8]) throws(StoredFormatViolation) -> Bool {
    var planted = companions
    planted[StoredBytes.fileName(forKey: driver.key)] = file
    let probe = StoredFormatProbe(format: format, sandbox: sandbox, file: file, planted: planted)
    try probe.restore()
    return try driver.exercise(probe)
  }

  /// Runs a libFuzzer input: its first byte chooses whether checksums are repaired (see
  /// ``StoredBytes/file(fromFuzzerInput:)``), the rest is the file.
  ///
  /// - Parameter input: The fuzzer's bytes.
  /// - Returns: Whether the main read accepted the file.
  /// - Throws: ``StoredFormatViolation`` when a property breaks.
  package func runFuzzerInput(_ input: [UInt8]) throws(StoredFormatViolation) -> Bool {
    let file = StoredBytes.file(fromFuzzerInput: input)
    _ = try read(file)
    return try run(file)
  }

  /// Reads `file` as the format from memory, through the decoders a file goes through but
  /// without the file system (see ``StoredFormatReader``): three to ten times faster than
  /// ``run(_:)``, which also checks what each operation does to the files.
  ///
  /// - Parameter file: The bytes of the file.
  /// - Returns: Whether the format's main read accepted the file.
  /// - Throws: ``StoredFormatViolation`` when a call throws an error that is not the library's.
  package func read(_ file: [UInt8]) throws(StoredFormatViolation) -> Bool {
    try StoredFormatReader(format: format, key: driver.key).read(file)
  }
}
