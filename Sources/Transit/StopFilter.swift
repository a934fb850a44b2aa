import Foundation

/// Which calls a search may use beyond the pattern's own pickup and drop-off flags. The
/// rounds are specialised for each: with every stop open (no alert closing one, the usual
/// case) the inner loop reads no per-stop mask at all.
protocol StopFilter {
    /// The flags allowed at a call of stop `stop` whose pattern allows `flags`.
    static func flags(_ flags: UInt8, at stop: Int, mask: UnsafeBufferPointer<UInt8>) -> UInt8
}

extension Raptor {
    /// Every stop open: the pattern's flags as they are.
    enum AllStopsOpen: StopFilter {
        @inline(__always) static func flags(_ flags: UInt8, at stop: Int, mask: UnsafeBufferPointer<UInt8>) -> UInt8 { flags }
    }

    /// Some stops closed (a realtime alert): the pattern's flags and the stop's mask.
    enum MaskedStops: StopFilter {
        @inline(__always) static func flags(_ flags: UInt8, at stop: Int, mask: UnsafeBufferPointer<UInt8>) -> UInt8 {
            flags & mask[stop]
        }
    }
}
