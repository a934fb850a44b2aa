// Every file of these tests sees the shared test support (DaemonHarness, SmallRegion, the test
// base classes …) without importing it itself.
@_exported import TestSupport
