// The umbrella module: one import for every ScreenTimeKit module.
@_exported import ActivityPlanning
@_exported import ActivityWatchInterop
@_exported import AppPipeline
@_exported import BudgetMath
@_exported import GapDetection
@_exported import SequenceTracking
@_exported import SharedStore
@_exported import Shielding
@_exported import SignalValues
@_exported import TrackerSignals
@_exported import UsageModel
