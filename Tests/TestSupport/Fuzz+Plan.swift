import Foundation

// MARK: - A module's fuzz targets

extension Fuzz {
  /// A module's fuzz targets, built once, with the seed and the number of inputs each gets: the
  /// scaffold every `FuzzTests` shares, so that a test file holds only its module's targets.
  ///
  /// Building the targets can throw (their fixtures are built with the module's own API), and a
  /// parameterised test's arguments cannot. A plan whose targets did not build, or built none,
  /// is therefore never silently empty: its one target fails with what went wrong.
  ///
  /// ```swift
  /// @Suite("Decoding hostile JSON never traps")
  /// struct FuzzTests {
  ///   static let plan = Fuzz.Plan(seed: 0x5EED_0002, makeTargets)
  ///
  ///   @Test("every input decodes to a usable value or throws a DecodingError",
  ///     arguments: plan.targets)
  ///   func fuzz(_ target: Fuzz.Target) throws { try Self.plan.run(target) }
  ///
  ///   static func makeTargets() throws -> [Fuzz.Target] { [.decoding([LocalDay.epoch])] }
  /// }
  /// ```
  package struct Plan: Sendable {
    /// The targets; when building them threw or built none, one target that fails saying so.
    package let targets: [Target]
    /// How many inputs each target gets.
    package let inputsPerTarget: Int
    /// The generator's seed, the same for every target: one per module.
    package let seed: UInt64
    /// Builds the targets with `makeTargets`; what it throws becomes a target that fails.
    ///
    /// - Parameters:
    ///   - seed: The generator's seed.
    ///   - inputsPerTarget: How many inputs each target gets.
    ///   - makeTargets: Builds the module's targets.
    package init(
      seed: UInt64, inputsPerTarget: Int = 850, _ makeTargets: () throws -> [Target]
    ) {
      self.seed = seed
      self.inputsPerTarget = inputsPerTarget
      let failure: String
      do {
        let built = try makeTargets()
        guard built.isEmpty else {
          targets = built
          return
        }
        failure = "the plan has no fuzz target"
      } catch {
        failure = "the fuzz targets did not build: \(error)"
      }
      targets = [Target(description: "no target") { _, _ in throw PlanError(failure) }]
    }

    /// Runs `target` on ``inputsPerTarget`` inputs from ``seed``.
    ///
    /// - Parameter target: One of ``targets``.
    /// - Returns: The tally.
    /// - Throws: ``Failure`` for the first input that breaks a property, or ``PlanError`` when the
    ///   target tried another number of inputs.
    @discardableResult
    package func run(_ target: Target) throws -> Tally {
      let tally = try target.run(inputsPerTarget, seed)
      guard tally.inputs == inputsPerTarget else {
        throw PlanError("\(target) tried \(tally.inputs) inputs, not \(inputsPerTarget)")
      }
      return tally
    }
  }

  /// A plan that did not build or did not run as planned.
  package struct PlanError: Error, CustomStringConvertible {
    /// What went wrong.
    package let description: String

    init(_ description: String) {
      self.description = description
    }
  }
}

// MARK: - Targets of a Codable type

extension Fuzz.Target {
  /// A target named after `Value` that runs ``Fuzz/run(_:seeds:inputs:seed:roundTrip:operations:)``
  /// on mutations of `seeds`.
  ///
  /// - Parameters:
  ///   - seeds: Valid values; their encodings are mutated.
  ///   - roundTrip: What a decoded value promises about its encoding.
  ///   - operations: The type's main operations, run on each decoded value.
  /// - Returns: The target.
  package static func decoding<Value: Codable & Equatable & Sendable>(
    _ seeds: [Value], roundTrip: Fuzz.RoundTrip = .equal,
    _ operations: @escaping @Sendable (Value) -> Void = { _ in }
  ) -> Self {
    Self(description: "\(Value.self)") { inputs, seed in
      try Fuzz.run(
        Value.self, seeds: seeds, inputs: inputs, seed: seed, roundTrip: roundTrip,
        operations: operations)
    }
  }

  /// A target named after `Value`, a type that is not `Equatable`, that runs
  /// ``Fuzz/runStable(_:seeds:inputs:seed:operations:)`` on mutations of `seeds`.
  ///
  /// - Parameters:
  ///   - seeds: Valid values; their encodings are mutated.
  ///   - operations: The type's main operations, run on each decoded value.
  /// - Returns: The target.
  package static func decodingStably<Value: Codable & Sendable>(
    _ seeds: [Value], _ operations: @escaping @Sendable (Value) -> Void = { _ in }
  ) -> Self {
    Self(description: "\(Value.self)") { inputs, seed in
      try Fuzz.runStable(
        Value.self, seeds: seeds, inputs: inputs, seed: seed, operations: operations)
    }
  }
}
