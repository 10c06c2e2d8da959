import Darwin

/// This task's port, read once: `task_self_trap()` rather than the `mach_task_self_` variable,
/// which SDKs before iOS 18.4 do not mark as safe to read from any thread in Swift 6.
private let currentTask: mach_port_t = task_self_trap()

/// The extension's resident memory in bytes, as the kernel reports it, or `nil` if it refuses.
///
/// The recorder keeps it with the heartbeat, and GapDetection's `MemoryPolicy` grades it
/// against the monitor extension's 6 MB limit.
func residentBytes() -> UInt64? {
  var info = mach_task_basic_info()
  var count = mach_msg_type_number_t(
    MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
  let result = withUnsafeMutablePointer(to: &info) { pointer in
    pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
      task_info(currentTask, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
    }
  }
  return result == KERN_SUCCESS ? UInt64(info.resident_size) : nil
}
